"""Stage 3: grounding emits only executable traces, and writes the customer's side."""

from __future__ import annotations

import pytest

from tau_emotion.domains.checks import run_checks
from tau_emotion.domains.tools import to_text
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.environment import Environment
from tau_emotion.tracer.graph import build_graph
from tau_emotion.tracer.ground import ground_walk
from tau_emotion.tracer.ground.fill import handoff_summary
from tau_emotion.tracer.ground.purpose import Grounded, aimless_reads, without_aimless_reads
from tau_emotion.tracer.oracle import replay_task
from tau_emotion.tracer.profile import internal_ids, load_profile
from tau_emotion.tracer.records import GroundResult, Walk
from tau_emotion.tracer.validate import leaked_ids
from tau_emotion.tracer.values import Choice
from tau_emotion.tracer.walks import walk_domain


@pytest.fixture(scope="module")
def grounded() -> list[GroundResult]:
    out: list[GroundResult] = []
    for name in ("telecom", "airline", "bank"):
        walks = [
            w
            for w in walk_domain(load_profile(name), build_graph(load_profile(name)), 60, 5, 0)
            if w.split == "train"
        ]
        out += [ground_walk(load_profile(w.domain), w, 5) for w in walks[:12]]
    return out


def test_every_candidate_replays_and_keeps_the_policy(grounded: list[GroundResult]) -> None:
    candidates = [r.candidate for r in grounded if r.candidate is not None]
    assert len(candidates) >= 8
    for c in candidates:
        env = Environment(c.task.domain, c.variant)
        messages, digest = replay_task(c.task, env)  # raises ToolError on a refused action
        assert digest == c.final_hash
        kinds = env.domain.tool_kinds
        assert run_checks(env.domain.checks, Trajectory(messages, kinds, env.fresh_tools)) == []
        assert c.trace == ">".join(a.name for a in c.task.gold_actions)


def test_failures_are_recorded_with_a_reason(grounded: list[GroundResult]) -> None:
    for r in grounded:
        assert (r.candidate is None) != (r.rejection is None)
        if r.rejection is not None:
            assert r.rejection.stage == "ground" and r.rejection.reason


def test_the_customer_side_names_no_tool_and_no_internal_id(
    grounded: list[GroundResult],
) -> None:
    for r in grounded:
        if r.candidate is None:
            continue
        task = r.candidate.task
        tools = set(Environment(task.domain, r.candidate.variant).domain.toolset.specs)
        texts = [task.instruction, *(i.request for i in task.intents)]
        for text in texts:
            assert not any(t in text for t in tools), text
        leaks = leaked_ids(texts, internal_ids(load_profile(task.domain), r.candidate.variant))
        # An id nothing describes is left as it is; validation then rejects the task.
        assert all(leak in r.candidate.task.instruction for leak in leaks)
        assert task.known_facts["full_name"] in task.instruction
        challenged = task.challenge.intent if task.challenge else None
        # A policy challenge's gold may be no call at all: the refusal.
        assert all(i.request and (i.actions or n == challenged) for n, i in enumerate(task.intents))


def test_an_impossible_walk_is_rejected_not_forced() -> None:
    # Reactivating a line twice in one task acts twice on one record: never groundable.
    walk = Walk(
        id="telecom-wx",
        domain="telecom",
        split="train",
        intents=[["find_customer_by_email", "get_customer_details", "unlock_device"]],
    )
    result = ground_walk(load_profile(walk.domain), walk, 1)
    assert result.candidate is None and result.rejection is not None


def test_outputs_come_from_the_write_results(grounded: list[GroundResult]) -> None:
    for r in grounded:
        if r.candidate is None:
            continue
        task = r.candidate.task
        env = Environment(task.domain, r.candidate.variant)
        env.reset()
        said = ""
        for action in task.gold_actions:
            said += to_text(env.call(action.name, dict(action.arguments)))
        env.reset()
        for output in task.required_outputs:
            assert output in said


def test_screen_verdicts_are_cached_per_tool_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two walks with the same tools in another order may get different screens; a cache keyed
    by the set of tools made the outcome depend on which walk a worker happened to see first."""
    from types import SimpleNamespace

    from tau_emotion.tracer.ground import screen

    kinds = {"lookup": "read", "pay": "write"}
    profile = SimpleNamespace(
        name="toy-order",
        domain=SimpleNamespace(tool_kinds=kinds),
        cache=SimpleNamespace(screened={}),
    )
    scene = SimpleNamespace(profile=profile, variant="main", customer_id="c1")
    seen: list[list[str]] = []

    def fake_screen(tools: list[str], writes: list[str], scene: object, env: object) -> bool:
        seen.append(list(tools))
        return tools.index("lookup") < tools.index("pay")  # needs the lookup before paying

    monkeypatch.setattr(screen, "_screen", fake_screen)
    assert screen.screen_customer(["lookup", "pay"], scene, None) is True  # type: ignore[arg-type]
    assert screen.screen_customer(["pay", "lookup"], scene, None) is False  # type: ignore[arg-type]
    assert screen.screen_customer(["lookup", "pay"], scene, None) is True  # type: ignore[arg-type]
    assert seen == [["lookup", "pay"], ["pay", "lookup"]]


def test_reads_without_a_purpose_leave_the_gold() -> None:
    """A lookup stays only to identify the customer, to show a value a later call uses, or to
    read a record a later write acts on; an intent left empty goes, and the steps the choices,
    the challenge and the offer point at follow the calls."""
    profile = load_profile("airline")
    user = {"user_id": "ana_lee_1"}
    # A choice records the last result its value showed in: the card, shown by the customer's
    # details, points at the aimless reservation read after them.
    card = Choice("card-1", "seen", None, 3)
    calls = [
        ("find_user_by_name_and_birth_date", {"first_name": "Ana", "last_name": "Lee"}),
        ("list_airports", {}),
        ("get_user_details", user),
        ("get_reservation_details", {"reservation_code": "OTHER1"}),
        ("change_cabin", {**user, "reservation_code": "AAAAAA", "payment_method_id": "card-1"}),
        ("get_flight_status", {"flight_number": "LK1", "date": "2025-06-23"}),
        ("get_reservation_details", {"reservation_code": "BBBBBB"}),
        ("cancel_reservation", {**user, "reservation_code": "BBBBBB"}),
        ("update_baggage", {**user, "reservation_code": "BBBBBB"}),
    ]
    choices: list[dict[str, Choice]] = [{} for _ in calls]
    # The customer id last seen in the aimless reservation read keeps nothing alive.
    choices[4] = {"payment_method_id": card, "user_id": Choice("ana_lee_1", "seen", None, 3)}
    grounded = Grounded(
        calls=calls,
        results=[f"r{i}" if i != 2 else '{"payment_methods": ["card-1"]}' for i in range(9)],
        choices=choices,
        intent_of=[0, 0, 0, 0, 0, 1, 2, 2, 2],
        challenged=2,
        offer=(8, "add a bag instead"),
    )
    assert aimless_reads(profile, grounded) == [
        "list_airports",
        "get_reservation_details",
        "get_flight_status",
    ]
    kept = without_aimless_reads(profile, grounded, "Ana Lee")
    assert [name for name, _ in kept.calls] == [
        "find_user_by_name_and_birth_date",
        "get_user_details",
        "change_cabin",
        "get_reservation_details",
        "cancel_reservation",
        "update_baggage",
    ]
    assert kept.results[2:] == ["r4", "r6", "r7", "r8"]
    assert kept.intent_of == [0, 0, 0, 1, 1, 1]  # intent 1 held only the aimless status read
    assert kept.choices[2]["payment_method_id"].step == 1  # where get_user_details is now
    assert kept.choices[2]["user_id"].step == 1  # the last kept call before its dropped read
    assert (kept.challenged, kept.offer) == (1, (5, "add a bag instead"))
    clean = Grounded(kept.calls, kept.results, kept.choices, kept.intent_of)
    assert without_aimless_reads(profile, clean, "Ana Lee") == clean


def test_a_read_of_another_record_is_not_kept_by_a_write_on_the_customer() -> None:
    """Every basketball read takes the customer's id: a merch order looked up before a write
    on the customer's season pass is about the order, which nothing acts on, so it goes; the
    customer's own details and the ticket order the refund acts on stay."""
    profile = load_profile("basketball")
    me = {"customer_id": "U1"}
    calls = [
        ("find_customer_by_email", {"email": "a@b.example"}),
        ("get_merch_order", {**me, "order_id": "MO1"}),
        ("get_customer_details", me),
        ("set_pass_auto_renew", {**me, "enabled": False}),
        ("get_ticket_order", {**me, "order_id": "TO1"}),
        ("get_merch_order", {**me, "order_id": "MO1"}),
        ("refund_tickets", {**me, "order_id": "TO1"}),
    ]
    grounded = Grounded(
        calls=calls,
        results=["r"] * len(calls),
        choices=[{} for _ in calls],
        intent_of=[0, 0, 0, 0, 1, 1, 1],
    )
    assert aimless_reads(profile, grounded) == ["get_merch_order", "get_merch_order"]
    kept = without_aimless_reads(profile, grounded, "Ana Lee")
    assert kept.calls == [call for step, call in enumerate(calls) if step not in (1, 5)]


def test_a_value_made_from_a_lookup_does_not_keep_the_lookup() -> None:
    """A party of two made from an availability check for one points at that check, but the
    customer states the two: the check of another location's tables goes, and the writer
    never asks the customer to want it."""
    profile = load_profile("restaurant")
    calls = [
        ("find_customer_by_phone", {"phone": "512-510-4021"}),
        ("check_availability", {"location_id": "L52", "date": "2025-04-19", "party_size": 1}),
        (
            "create_reservation",
            {"customer_id": "C1", "location_id": "L53", "date": "2025-07-17", "party_size": 2},
        ),
    ]
    choices: list[dict[str, Choice]] = [{}, {}, {"party_size": Choice(2, "made", None, 1)}]
    grounded = Grounded(calls=calls, results=["r"] * 3, choices=choices, intent_of=[0, 0, 0])
    assert aimless_reads(profile, grounded) == ["check_availability"]
    # A party size seen in that result is still about another location's tables.
    choices[2] = {"party_size": Choice(2, "seen", None, 1)}
    assert aimless_reads(profile, grounded) == ["check_availability"]
    # Seen in the check of the location booked, it is a value the agent takes from it.
    calls[1] = ("check_availability", {"location_id": "L53", "date": "2025-07-17", "party_size": 2})
    assert aimless_reads(profile, grounded) == []


def test_a_time_listed_for_one_location_does_not_keep_its_lookup_for_another() -> None:
    """The 17:30 a booking at L52 takes also shows in L51's availability: that check is
    of another location, and the gold does not keep it for the time."""
    profile = load_profile("restaurant")
    calls = [
        ("find_customer_by_phone", {"phone": "512-510-4021"}),
        ("check_availability", {"location_id": "L51", "date": "2025-06-14", "party_size": 4}),
        ("check_availability", {"location_id": "L52", "date": "2025-06-19", "party_size": 4}),
        (
            "create_reservation",
            {
                "customer_id": "C1",
                "location_id": "L52",
                "date": "2025-06-19",
                "time": "17:30",
                "party_size": 4,
            },
        ),
    ]
    choices: list[dict[str, Choice]] = [{}, {}, {}, {"time": Choice("17:30", "seen", None, 1)}]
    grounded = Grounded(calls=calls, results=["r"] * 4, choices=choices, intent_of=[0] * 4)
    # L52's own check stays (the booking acts on its location); L51's goes.
    assert aimless_reads(profile, grounded) == ["check_availability"]
    assert without_aimless_reads(profile, grounded, "Ana Lee").calls == [
        calls[0],
        calls[2],
        calls[3],
    ]


def test_a_hand_off_summary_names_a_call_the_gold_still_makes() -> None:
    """The summary says which call the conversation got to; when that read leaves the gold,
    it names the last call that stays."""
    profile = load_profile("airline")
    summary = handoff_summary("Ana Lee", "list_airports")
    calls = [
        ("find_user_by_name_and_birth_date", {"first_name": "Ana", "last_name": "Lee"}),
        ("list_airports", {}),
        ("transfer_to_human_agents", {"summary": summary}),
    ]
    choices: list[dict[str, Choice]] = [{}, {}, {"summary": Choice(summary, "text")}]
    grounded = Grounded(calls, ["r0", "r1", "r2"], choices, [0, 0, 0])
    kept = without_aimless_reads(profile, grounded, "Ana Lee")
    retold = handoff_summary("Ana Lee", "find_user_by_name_and_birth_date")
    assert kept.calls[-1] == ("transfer_to_human_agents", {"summary": retold})
    assert kept.choices[-1]["summary"].value == retold


def test_a_value_the_customer_states_does_not_keep_the_read_that_showed_it() -> None:
    """An order read only for the street the customer then dictates as their new address
    has no purpose: the customer says the address, so the read goes. An id a lookup shows
    (the variant a swap takes from the product's list) is not a value the customer can
    say, and keeps its read."""
    profile = load_profile("retail")
    address = {"line1": "6799 Valley Road", "city": "Minneapolis", "state": "MN"}
    calls = [
        ("find_customer_by_email", {"email": "a@b.example"}),
        ("get_order", {"order_number": "ORD-412341"}),
        ("update_customer_address", {"customer_id": "CU-1", **address, "zip_code": "55481"}),
    ]
    seen = {p: Choice(v, "seen", None, 1) for p, v in address.items()}
    grounded = Grounded(calls, ["r0", "r1", "r2"], [{}, {}, dict(seen)], [0, 0, 0])
    assert aimless_reads(profile, grounded) == ["get_order"]
    kept = without_aimless_reads(profile, grounded, "Ana Lee")
    assert [name for name, _ in kept.calls] == ["find_customer_by_email", "update_customer_address"]
    calls[1] = ("get_product", {"product_id": "P1"})
    calls[2] = (
        "change_pending_item",
        {"order_number": "ORD-9", "item_id": "SKU-0", "new_item_id": "SKU-1"},
    )
    swap = {"new_item_id": Choice("SKU-1", "seen", None, 1)}
    grounded = Grounded(calls, ["r0", "r1", "r2"], [{}, {}, swap], [0, 0, 0])
    assert aimless_reads(profile, grounded) == []
