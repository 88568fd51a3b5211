"""The shop's catalogue as static templates: each product lists its option axes.

A variant (item) is one combination of option values; its price is the product's base
price plus the deltas of its values. The generator expands these templates with a seeded
random choice of which combinations are stocked. The templates are data, in `templates.json`,
which prices in integer cents (exact in JSON, and read only by the generator); the generator
turns a variant's price into the records' dollars (`Money`).
"""

from __future__ import annotations

from typing import NamedTuple

from tau_emotion.domains.kit.reference import Reference


class Axis(NamedTuple):
    name: str
    values: tuple[tuple[str, int], ...]
    """(value, price delta in cents)."""


class ProductTemplate(NamedTuple):
    name: str
    category: str
    base_cents: int
    axes: tuple[Axis, ...]


_REFERENCE = Reference(__package__ or __name__, "templates.json")
TEMPLATES = _REFERENCE.table("templates", tuple[ProductTemplate, ...])
