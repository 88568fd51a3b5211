"""The domains the shipped benchmark's figures describe.

A figure about the shipped sets (580 test tasks, 7,600 train tasks split over ten domains,
the per-domain table of docs/tracer.md) is a fact about these ten domains, not about
whatever folders `domain_names()` finds: a test of such a figure scopes it to these names,
so a domain folder added since neither breaks the figure nor hides a change to it. Tests of
what every domain must do use `domain_names()` instead.
"""

from __future__ import annotations

SHIPPED_DOMAINS = (
    "airline",
    "bank",
    "basketball",
    "movie",
    "restaurant",
    "retail",
    "school",
    "telecom",
    "telehealth",
    "travel",
)
