"""Grounding drops reads nothing uses from the gold, and keeps what the policy or a later
argument needs."""

from __future__ import annotations

from typing import Any

from tau_emotion.domains.tools import to_text
from tau_emotion.environment import Environment
from tau_emotion.tracer.ground.prune import prune_reads
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.values import Choice

FIND = (
    "find_user_by_name_and_birth_date",
    {"first_name": "Jasmine", "last_name": "Holloway", "date_of_birth": "2000-11-27"},
)
READ = ("get_reservation_details", {"reservation_code": "ESDM7T"})
AIRPORTS: tuple[str, dict[str, Any]] = ("list_airports", {})
CANCEL = ("cancel_reservation", {"user_id": "jasmine_holloway_3013", "reservation_code": "ESDM7T"})


def _run(calls: list[tuple[str, dict[str, Any]]]) -> tuple[Environment, list[str]]:
    profile = load_profile("airline")
    env = Environment(profile.domain, "main")
    results = [to_text(env.call(name, dict(args))) for name, args in calls]
    env.reset()
    return env, results


def test_a_read_nothing_uses_is_dropped_and_steps_follow() -> None:
    calls = [FIND, AIRPORTS, READ, CANCEL]
    env, results = _run(calls)
    user = Choice(value="jasmine_holloway_3013", source="seen", step=0)
    code = Choice(value="ESDM7T", source="seen", step=2)
    choices: list[dict[str, Choice]] = [
        {},
        {},
        {"reservation_code": code},
        {"user_id": user, "reservation_code": code},
    ]
    kept, texts, chosen, intents = prune_reads(
        load_profile("airline"), env, calls, results, choices, [0, 0, 0, 0]
    )
    assert [name for name, _ in kept] == [FIND[0], READ[0], CANCEL[0]]
    assert texts == [results[0], results[2], results[3]] and intents == [0, 0, 0]
    # The code was read at step 2, which is step 1 now.
    assert chosen[2]["reservation_code"].step == 1 and chosen[2]["user_id"].step == 0


def test_nothing_is_dropped_when_every_read_feeds_a_later_call() -> None:
    calls = [FIND, READ, CANCEL]
    env, results = _run(calls)
    code = Choice(value="ESDM7T", source="seen", step=1)
    choices: list[dict[str, Choice]] = [{}, {}, {"reservation_code": code}]
    kept, *_ = prune_reads(load_profile("airline"), env, calls, results, choices, [0, 0, 0])
    assert kept == calls
