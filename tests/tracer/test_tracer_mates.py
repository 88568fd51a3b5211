"""A new address is one address: its street, city, state and zip code come from one record.

The candidates for a call's parameters are kept across the attempts at it, and a later
attempt may take another street; the city, state and zip code must follow that street, not
the one an earlier attempt took (the build once wrote "7108 Park Place, San Diego, NC").
"""

from __future__ import annotations

from tau_emotion.tracer.ground.arguments import argument_sets
from tau_emotion.tracer.ground.fill import coherent_pick
from tau_emotion.tracer.ground.search import new_scene
from tau_emotion.tracer.profile import db_pools, load_profile
from tau_emotion.tracer.values import Choice

ADDRESS = ("line1", "city", "state", "zip_code")
TEXT = {"type": "string"}


def _addresses(profile_name: str, variant: str) -> set[tuple[str, str, str]]:
    """Every (city, state, zip code) an address in the database has."""
    profile = load_profile(profile_name)
    found: set[tuple[str, str, str]] = set()
    for obj in db_pools(profile, variant).objects.get("city", []):
        if {"state", "zip_code"} <= obj.keys():
            found.add((obj["city"], obj["state"], obj["zip_code"]))
    return found


def test_every_attempt_at_a_new_address_keeps_its_city_state_and_zip_together() -> None:
    profile = load_profile("retail")
    variant = profile.domain.variant_for("test")
    real = _addresses("retail", variant)
    spec = profile.domain.toolset.specs["update_customer_address"]
    tried = 0
    for customer in profile.customers("test")[:8]:
        scene = new_scene(profile, variant, customer, db_pools(profile, variant), customer)
        for item in argument_sets("update_customer_address", spec, scene, 12):
            assert not isinstance(item, str), item
            args, _ = item
            tried += 1
            assert (args["city"], args["state"], args["zip_code"]) in real, args
    assert tried >= 40  # several attempts per customer, each a fresh pick of the street


def test_a_kept_city_follows_the_street_or_the_customers_own_address() -> None:
    profile = load_profile("retail")
    variant = profile.domain.variant_for("test")
    pools = db_pools(profile, variant)
    scene = new_scene(profile, variant, profile.customers("test")[0], pools, "t")
    params = frozenset({"customer_id", *ADDRESS, "line2"})
    home = {
        "line1": "1 Elm St",
        "line2": "",
        "city": "Austin",
        "state": "TX",
        "zip_code": "78701",
        "country": "US",
    }
    elsewhere = next(o for o in pools.objects["state"] if o.get("city") not in ("Austin", None))
    kept = Choice(elsewhere["state"], "pool", elsewhere)
    # A street seen in the customer's address: its state, not the kept one.
    street = {"line1": Choice("1 Elm St", "seen", home, 0)}
    assert (
        coherent_pick(kept, "update_customer_address", "state", TEXT, street, scene, params).value
        == "TX"
    )
    # The customer's own city, stated as a fact: a state of some Austin address.
    city = {"city": Choice("Austin", "fact")}
    picked = coherent_pick(kept, "update_customer_address", "state", TEXT, city, scene, params)
    assert picked.value == "TX" and picked.context is not None
    assert picked.context["city"] == "Austin"
    # A pick that already agrees stays as it is.
    mine = Choice(elsewhere["state"], "pool", elsewhere)
    assert (
        coherent_pick(
            mine,
            "update_customer_address",
            "state",
            TEXT,
            {"city": Choice(elsewhere["city"], "fact")},
            scene,
            params,
        )
        is mine
    )


def test_a_record_that_shares_a_field_or_two_is_not_held_together() -> None:
    # A reservation whose time is being moved keeps its date; the new time may come from
    # any other record: only values made of the call's parameters go together.
    profile = load_profile("retail")
    variant = profile.domain.variant_for("test")
    scene = new_scene(
        profile, variant, profile.customers("test")[0], db_pools(profile, variant), "t"
    )
    booking = {
        "code": "R1",
        "customer_id": "C1",
        "location_id": "L1",
        "date": "2025-06-01",
        "time": "19:00",
        "party_size": 2,
        "status": "booked",
    }
    other = {**booking, "code": "R2", "date": "2025-06-03", "time": "20:30"}
    chosen = {"date": Choice("2025-06-01", "seen", booking, 0)}
    pick = Choice("20:30", "pool", other)
    params = frozenset({"code", "date", "time"})
    assert coherent_pick(pick, "update_reservation", "time", TEXT, chosen, scene, params) is pick


def test_a_number_or_an_id_is_never_taken_from_a_mate() -> None:
    # A slot that lists a location, a date, a time and a size offers no party size to a
    # booking: numbers and ids are picked by their own rules.
    profile = load_profile("retail")
    variant = profile.domain.variant_for("test")
    scene = new_scene(
        profile, variant, profile.customers("test")[0], db_pools(profile, variant), "t"
    )
    slot = {"location_id": "L1", "date": "2025-06-01", "time": "19:00", "party_size": 1}
    chosen = {"date": Choice("2025-06-01", "seen", slot, 0)}
    params = frozenset({"customer_id", "location_id", "date", "time", "party_size"})
    pick = Choice(4, "made")
    number = {"type": "integer"}
    assert (
        coherent_pick(pick, "create_reservation", "party_size", number, chosen, scene, params)
        is pick
    )
