"""Outcome classes, the collection summary, and the dissatisfied-exit switch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from training_helpers import episode, oracle_config, scored

from tau_emotion.data import Message, TerminationReason
from tau_emotion.runner.participants import Participants
from tau_emotion.runner.results import RESULTS_FILE
from tau_emotion.simulation.participants import Agent, EpisodeSetup
from tau_emotion.training.collect import (
    OUTCOMES_FILE,
    SUMMARY_FILE,
    CollectionError,
    collect,
    load_run,
)
from tau_emotion.training.outcomes import (
    CollectSummary,
    Outcome,
    RolloutRecord,
    classify,
    rollout_record,
    summarize,
    tool_call_count,
)


def scripted_summary(records: list[RolloutRecord], agent: str) -> CollectSummary:
    """The summary of `records` as a one-trial collection with the scripted user reports it."""
    return summarize(
        records,
        {},
        run_dir="x",
        user_exit=True,
        agent=agent,
        agent_model=None,
        user="scripted",
        user_model=None,
        max_steps=50,
        trials=1,
    )


def test_outcome_classes_on_constructed_episodes() -> None:
    assert classify(episode()) == Outcome.SUCCESS
    walked = episode(reward=-1.0, termination=TerminationReason.USER_UNSATISFIED)
    assert classify(walked) == Outcome.DISSATISFIED
    assert classify(episode(reward=0.0)) == Outcome.FAILED
    assert classify(episode(reward=0.0, termination=TerminationReason.MAX_STEPS)) == Outcome.FAILED
    assert classify(episode(reward=0.0, termination=TerminationReason.TRANSFER)) == Outcome.FAILED
    # Gold state reached, but the endpoint died mid-conversation: not training data.
    cut = episode(reward=1.0, termination=TerminationReason.INFRA_ERROR, errors=1)
    assert classify(cut) == Outcome.FAILED
    assert tool_call_count(episode(calls=3)) == 3


def test_rollouts_that_broke_a_policy_rule_are_violated_not_success() -> None:
    # D1: the reward leaves policy out, training data may not.
    broke = scored(episode(), "movie.confirm_before_write")
    assert classify(broke) == Outcome.VIOLATED
    assert classify(scored(episode())) == Outcome.SUCCESS  # audited and clean
    assert classify(episode()) == Outcome.SUCCESS  # not scored: nothing known against it
    # A failure or a walk-away that also broke a rule keeps its own class.
    assert classify(scored(episode(reward=0.0), "movie.x")) == Outcome.FAILED
    walked = episode(reward=-1.0, termination=TerminationReason.USER_UNSATISFIED)
    assert classify(scored(walked, "movie.x")) == Outcome.DISSATISFIED
    record = rollout_record(broke, None)
    assert record.outcome == "violated" and record.policy_violations == [
        "movie.confirm_before_write"
    ]
    s = scripted_summary([record, rollout_record(episode("movie", "b"), None)], "no-confirm")
    assert (s.overall.success, s.overall.violated, s.overall.total) == (1, 1, 2)
    assert s.by_domain["movie"].violated == 1 and s.by_family["anger"].violated == 1
    assert s.mean_tool_calls_success == 2.0  # the violated rollout is not a success


def test_no_confirm_collection_counts_violations(tmp_path: Path) -> None:
    # D1 end to end: the oracle without its confirmations reaches every goal, breaking a rule.
    out = tmp_path / "nc"
    config = oracle_config(out, no_emotion=True).model_copy(update={"agent": "no-confirm"})
    summary = collect(config)
    assert summary.overall.total > 0
    assert summary.overall.violated == summary.overall.total and summary.overall.success == 0
    saved = json.loads((out / SUMMARY_FILE).read_text())
    assert saved["overall"]["violated"] == summary.overall.total
    records = [json.loads(line) for line in (out / OUTCOMES_FILE).read_text().splitlines()]
    assert {r["outcome"] for r in records} == {"violated"}
    assert all(r["policy_violations"] for r in records)


def test_a_rollout_stopped_by_the_step_budget_is_failed_even_at_reward_one() -> None:
    # D2: the reward judges the final state only; the conversation itself was cut off.
    cut = scored(episode(termination=TerminationReason.MAX_STEPS))
    assert cut.reward == 1.0 and classify(cut) == Outcome.FAILED
    # A transfer is judged by the reward alone: one in the gold actions can succeed.
    assert classify(scored(episode(termination=TerminationReason.TRANSFER))) == Outcome.SUCCESS


def test_summary_counts_by_class_domain_and_family() -> None:
    episodes = [
        episode("movie", "a", calls=2),
        episode("movie", "b", calls=4, family=None),
        episode("school", "c", reward=0.0, family="fear"),
        episode(
            "school", "d", reward=-1.0, termination=TerminationReason.USER_UNSATISFIED, calls=1
        ),
    ]
    records = [rollout_record(e, None) for e in episodes]
    s = scripted_summary(records, "oracle")
    assert (s.overall.success, s.overall.failed, s.overall.dissatisfied, s.overall.total) == (
        2,
        1,
        1,
        4,
    )
    assert s.by_domain["movie"].success == 2 and s.by_domain["school"].dissatisfied == 1
    assert s.by_family["none"].success == 1 and s.by_family["fear"].failed == 1
    assert s.by_family["anger"].total == 2
    assert s.mean_tool_calls_success == 3.0
    assert s.mean_gold_actions_success is None  # no tasks known for constructed episodes


def test_oracle_collection_writes_outcomes_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "collect"
    # Neutral: with emotion the scripted customer may walk out on even the oracle (it never
    # acknowledges feelings), which says nothing about collection.
    summary = collect(oracle_config(out, no_emotion=True))
    lines = (out / RESULTS_FILE).read_text().splitlines()
    assert summary.overall.total == len(lines) == summary.tasks > 0
    assert summary.overall.success == summary.overall.total  # the oracle always succeeds
    assert set(summary.by_domain) == {"movie", "restaurant", "school"}
    assert summary.by_family  # neutral tasks count as family "none"
    # The oracle plays exactly the gold actions: its tool calls equal the reference length.
    assert summary.mean_tool_calls_success == pytest.approx(summary.mean_gold_actions_success)
    assert summary.mean_gold_actions_all == pytest.approx(summary.mean_gold_actions_success)
    records = [json.loads(line) for line in (out / OUTCOMES_FILE).read_text().splitlines()]
    assert len(records) == len(lines) and {r["outcome"] for r in records} == {"success"}
    saved = CollectSummary.model_validate_json((out / SUMMARY_FILE).read_text())
    assert saved == summary
    assert (out / "manifest.json").exists() and (out / "metrics.json").exists()
    config, episodes = load_run(out)
    assert config.max_steps == 50 and len(episodes) == len(lines)
    # Resume: nothing new to run, derived files rewritten identically.
    again = collect(oracle_config(out, no_emotion=True), resume=True)
    assert again == summary and len((out / RESULTS_FILE).read_text().splitlines()) == len(lines)


def test_collection_refuses_the_test_split(tmp_path: Path) -> None:
    config = oracle_config(tmp_path).model_copy(update={"split": "test"})
    with pytest.raises(CollectionError, match="train"):
        collect(config)


class StallingAgent:
    """Never makes progress: the scripted user loses patience."""

    def system_prompt(self) -> str:
        return "You are an agent."

    async def respond(self, messages: Sequence[Message]) -> Message:
        return Message(role="assistant", content="Let me look into that for you.")


class StallingParticipants(Participants):
    def agent(self, setup: EpisodeSetup) -> Agent:
        return StallingAgent()


def test_exit_switch_turns_walk_aways_into_failures(tmp_path: Path) -> None:
    def run(user_exit: bool) -> CollectSummary:
        config = oracle_config(
            tmp_path / f"exit-{user_exit}", domains=["movie"], user_exit=user_exit
        )
        return collect(config, participants=StallingParticipants(config))

    with_exit, without_exit = run(True), run(False)
    assert with_exit.user_exit and not without_exit.user_exit
    assert with_exit.tasks == without_exit.tasks > 0  # same tasks, same budget
    assert with_exit.overall.dissatisfied == with_exit.overall.total
    assert without_exit.overall.dissatisfied == 0
    assert without_exit.overall.failed == without_exit.overall.total
    _, episodes = load_run(tmp_path / "exit-False")
    assert all(e.termination == TerminationReason.MAX_STEPS for e in episodes)
    assert all(len(e.messages) <= 51 for e in episodes)  # system + at most 50 steps
