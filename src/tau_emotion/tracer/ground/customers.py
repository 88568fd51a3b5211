"""The customer's side of the database: the receipt codes they hold."""

from __future__ import annotations

import random

from tau_emotion.tracer.profile import Profile, code_table
from tau_emotion.tracer.values import Obs


def _owners(profile: Profile, variant: str) -> dict[str, list[tuple[str, str, dict[str, object]]]]:
    """customer id -> [(param, code, record)] over every receipt-code table."""
    if variant in profile.cache.code_owners:
        return profile.cache.code_owners[variant]
    out: dict[str, list[tuple[str, str, dict[str, object]]]] = {}
    for tname, table in profile.db(variant).tables().items():
        params = [p for p in profile.known_codes if code_table(p, tname)]
        if not params:
            continue
        for key, record in table.items():
            data = record.model_dump(mode="json")
            owner = next(
                (
                    v
                    for k, v in data.items()
                    if isinstance(v, str) and (k == profile.customer_param or k == "customer_id")
                ),
                None,
            )
            if owner is None:
                owner = next(
                    (v for k, v in data.items() if k.endswith("_id") and isinstance(v, str)), None
                )
            # A code nobody holds yet (a voucher from a health fund) can be given to anyone.
            holder = owner if owner is not None else ""
            out.setdefault(holder, []).extend((p, key, data) for p in params)
    profile.cache.code_owners[variant] = out
    return out


UNOWNED_CODES = 3
"""Unowned codes (vouchers) handed to one customer."""


def customer_codes(profile: Profile, variant: str, customer_id: str) -> list[Obs]:
    """The customer's receipt codes as observations of step -1 (known before any call), plus
    a few unowned ones (a voucher someone gave them), picked by the customer id."""
    owners = _owners(profile, variant)
    own = owners.get(customer_id, [])
    free = owners.get("", [])
    if free:
        rng = random.Random(f"tracer/codes/{customer_id}")
        own = own + rng.sample(free, min(UNOWNED_CODES, len(free)))
    return [Obs(param, (param,), code, record, "codes", -1) for param, code, record in own]
