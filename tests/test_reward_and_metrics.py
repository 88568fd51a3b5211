from __future__ import annotations

from math import comb

import pytest

from tau_emotion.data import EmotionSpec, Episode, Message, RewardBreakdown, TerminationReason
from tau_emotion.evaluation.metrics import compute_metrics, pass_at_k, pass_hat_k
from tau_emotion.evaluation.reward import compute_reward, output_communicated

from toy_domain import credit_task


def test_output_matching_by_text_and_by_number() -> None:
    assert output_communicated("15.0", ["Your balance is $15.00 now."])
    assert output_communicated("1,250.50", ["That is 1250.5 dollars."])
    assert output_communicated("Seat 12A", ["You are in seat 12a."])
    assert not output_communicated("15.0", ["Your balance is 16 dollars."])
    assert not output_communicated("ABC123", ["code abc124"])


@pytest.mark.parametrize(
    ("final", "said", "termination", "reward"),
    [
        ("g", "balance 15.0", TerminationReason.USER_STOP, 1.0),
        ("x", "balance 15.0", TerminationReason.USER_STOP, 0.0),
        ("g", "balance unknown", TerminationReason.USER_STOP, 0.0),
        ("g", "balance 15.0", TerminationReason.USER_UNSATISFIED, -1.0),
        ("x", "nothing", TerminationReason.USER_UNSATISFIED, -1.0),
        ("g", "balance 15.0", TerminationReason.MAX_STEPS, 1.0),
        # An episode cut short by an error is never a success, even on a matching database.
        ("g", "balance 15.0", TerminationReason.INFRA_ERROR, 0.0),
        ("g", "balance 15.0", TerminationReason.AGENT_ERROR, 0.0),
        ("g", "balance 15.0", TerminationReason.USER_ERROR, 0.0),
        ("g", "balance 15.0", TerminationReason.FRAMEWORK_ERROR, 0.0),
    ],
)
def test_reward_cases(final: str, said: str, termination: TerminationReason, reward: float) -> None:
    messages = [Message(role="assistant", content=said)]
    value, breakdown = compute_reward(credit_task(), final, "g", messages, termination)
    assert value == reward
    assert breakdown.db_match == (final == "g")
    assert breakdown.dissatisfied == (termination == TerminationReason.USER_UNSATISFIED)


def test_pass_formulas_match_hand_computed_values() -> None:
    # n=4, c=2: Pass^1 = 2/4, Pass^2 = C(2,2)/C(4,2) = 1/6, pass@2 = 1 - C(2,2)/C(4,2) = 5/6
    assert pass_hat_k(4, 2, 1) == pytest.approx(0.5)
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_hat_k(4, 2, 3) == 0.0
    assert pass_at_k(4, 2, 2) == pytest.approx(5 / 6)
    assert pass_at_k(4, 2, 3) == 1.0
    assert pass_at_k(3, 0, 3) == 0.0
    assert pass_hat_k(5, 3, 2) == pytest.approx(comb(3, 2) / comb(5, 2))
    with pytest.raises(ValueError):
        pass_hat_k(3, 1, 4)


def _ep(domain: str, task: str, trial: int, reward: float, family: str | None = None) -> Episode:
    emotion = None
    if family:
        emotion = EmotionSpec(
            condition_id=f"{family}.x.warm.low.trusting",
            family=family,
            emotion="x",
            politeness="warm",
            urgency="low",
            trust="trusting",
            instruction="You feel x.",
        )
    term = TerminationReason.USER_UNSATISFIED if reward == -1 else TerminationReason.USER_STOP
    return Episode(
        task_id=task,
        domain=domain,
        trial=trial,
        seed=0,
        emotion=emotion,
        messages=[],
        termination=term,
        reward=reward,
    )


def test_metrics_per_domain_equal_and_task_weighted() -> None:
    episodes = [
        # domain a: task a1 3/3, task a2 1/3 ; domain b: task b1 0/3 (one walk-away)
        *[_ep("a", "a1", t, 1.0, "anger") for t in range(3)],
        _ep("a", "a2", 0, 1.0, "fear"),
        _ep("a", "a2", 1, 0.0, "fear"),
        _ep("a", "a2", 2, 0.0, "fear"),
        _ep("b", "b1", 0, 0.0),
        _ep("b", "b1", 1, -1.0),
        _ep("b", "b1", 2, 0.0),
    ]
    report = compute_metrics(episodes)
    assert report.k == 3
    a = report.domains["a"]
    assert a.avg.value == pytest.approx((1 + 1 / 3) / 2)
    assert a.pass_hat[3].value == pytest.approx(0.5)
    assert a.pass_hat[2].value == pytest.approx((1 + 0) / 2)
    assert a.pass_at[2].value == pytest.approx((1 + (1 - comb(2, 2) / comb(3, 2))) / 2)
    assert report.domains["b"].avg.value == 0.0
    assert report.domains["b"].dissatisfied_rate == pytest.approx(1 / 3)
    assert report.overall_equal.avg.value == pytest.approx(((1 + 1 / 3) / 2 + 0) / 2)
    assert report.overall_tasks.avg.value == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert report.breakdowns["family"]["anger"].avg.value == 1.0
    assert report.breakdowns["family"]["none"].tasks == 1
    ci = report.overall_tasks.avg
    assert ci.low <= ci.value <= ci.high
    # deterministic given the seed
    assert compute_metrics(episodes).model_dump() == report.model_dump()


def test_the_domain_mean_has_a_real_interval_when_domains_hold_one_task() -> None:
    # One task a domain (`run --domain all --num-tasks 10`): a stratum of one task never
    # varies, so a stratified bootstrap reported the ranking figure as a point.
    rewards = {"a": [0.0, 0.0, 0.0], "b": [1.0, 1.0, 1.0], "c": [1.0, 0.0, 0.0]}
    episodes = [
        _ep(d, f"{d}1", t, r) for d, trials in rewards.items() for t, r in enumerate(trials)
    ]
    mean = compute_metrics(episodes).overall_equal.avg
    assert mean.value == pytest.approx(4 / 9)
    assert mean.low < mean.value < mean.high
    assert mean.low == pytest.approx(0.0) and mean.high == pytest.approx(1.0)
    # With an uneven split the equal-weight mean weighs each task by 1 / its domain's tasks.
    uneven = [*episodes, *[_ep("a", "a2", t, 1.0) for t in range(3)]]
    assert compute_metrics(uneven).overall_equal.avg.value == pytest.approx((0.5 + 1 + 1 / 3) / 3)


def test_metrics_need_episodes() -> None:
    with pytest.raises(ValueError, match="no episodes"):
        compute_metrics([])


def _scored(task: str, trial: int, reward: float, broken: list[str] | None) -> Episode:
    """An episode with a breakdown; `broken` None means results from before the audit."""
    audit = {} if broken is None else {"policy_violations": broken}
    breakdown = RewardBreakdown(
        db_match=reward == 1.0,
        final_hash="h",
        gold_hash="h",
        dissatisfied=False,
        reason="-",
        **audit,
    )
    return _ep("a", task, trial, reward, "anger").model_copy(update={"breakdown": breakdown})


def test_clean_success_metrics_beside_the_plain_ones() -> None:
    episodes = [
        # t1: 3/3 successes, one of them broke a hard rule; t2: 1/3, clean
        _scored("t1", 0, 1.0, []),
        _scored("t1", 1, 1.0, ["a.confirm_before_write"]),
        _scored("t1", 2, 1.0, []),
        _scored("t2", 0, 1.0, []),
        _scored("t2", 1, 0.0, ["a.authenticate_first"]),
        _scored("t2", 2, 0.0, []),
    ]
    report = compute_metrics(episodes)
    a = report.domains["a"]
    assert a.avg.value == pytest.approx((1 + 1 / 3) / 2)
    assert a.clean_avg is not None and a.clean_pass_hat is not None
    assert a.clean_avg.value == pytest.approx((2 / 3 + 1 / 3) / 2)
    assert a.clean_pass_hat[1].value == pytest.approx(a.clean_avg.value)
    assert a.clean_pass_hat[2].value == pytest.approx((comb(2, 2) / comb(3, 2) + 0) / 2)
    assert a.clean_pass_hat[3].value == 0.0 and a.pass_hat[3].value == pytest.approx(0.5)
    anger = report.breakdowns["family"]["anger"]
    assert anger.clean_avg is not None and anger.clean_avg.value == a.clean_avg.value
    ci = anger.clean_avg
    assert ci.low <= ci.value <= ci.high
    # the plain figures do not move when the clean ones are added (same resamples)
    plain = [e.model_copy(update={"breakdown": None}) for e in episodes]
    assert compute_metrics(plain).domains["a"].avg == a.avg


def test_results_never_audited_have_no_clean_figures() -> None:
    old = [_scored("t1", 0, 1.0, None), _scored("t2", 0, 0.0, None)]
    report = compute_metrics(old)
    assert report.domains["a"].clean_avg is None and report.domains["a"].clean_pass_hat is None
    # a failure needs no audit: it is not a clean success either way
    failures = [_scored("t1", 0, 0.0, None), _scored("t2", 0, 0.0, [])]
    clean = compute_metrics(failures).domains["a"].clean_avg
    assert clean is not None and clean.value == 0.0


def test_reward_records_policy_violations_beside_it_without_changing_it() -> None:
    messages = [Message(role="assistant", content="balance 15.0")]
    stop = TerminationReason.USER_STOP
    plain, unaudited = compute_reward(credit_task(), "g", "g", messages, stop)
    value, audited = compute_reward(credit_task(), "g", "g", messages, stop, ["a.b", "a.c"])
    assert value == plain == 1.0
    assert audited.policy_violations == ["a.b", "a.c"] and audited.policy_audited
    assert unaudited.policy_violations == [] and not unaudited.policy_audited
    # the audit survives a round trip through a results file
    assert RewardBreakdown.model_validate_json(audited.model_dump_json()).policy_audited
