"""Mix specs give the requested composition, deterministically."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from training_helpers import episode, scored

from tau_emotion.data import Episode, TerminationReason
from tau_emotion.domains import domain_names
from tau_emotion.storage import model_json
from tau_emotion.training.export import training_digest
from tau_emotion.training.mixes import (
    BUILTIN_MIXES,
    COMPOSITION_FILE,
    EPISODES_FILE,
    MixComposition,
    MixError,
    MixSpec,
    build_mix,
    read_episodes,
    resolve_spec,
    water_fill,
    write_mix,
)

# Successes per domain: airline and movie are the "productive" domains.
COUNTS = {"airline": 60, "movie": 40, "retail": 12, "school": 5, "telecom": 8, "telehealth": 3}


def pool() -> list[Episode]:
    episodes = []
    for domain, n in COUNTS.items():
        for i in range(n):
            family = ("anger", "fear", None)[i % 3]
            episodes.append(episode(domain, f"{domain}-{i:03d}", family=family))
        # failures and walk-aways never enter a mix
        episodes.append(episode(domain, f"{domain}-fail", reward=0.0))
        episodes.append(
            episode(
                domain,
                f"{domain}-walk",
                reward=-1.0,
                termination=TerminationReason.USER_UNSATISFIED,
            )
        )
    return episodes


def keys(episodes: list[Episode]) -> list[tuple[str, str, int]]:
    return [e.key for e in episodes]


def test_water_fill_cuts_the_largest_domains_first() -> None:
    assert water_fill({"a": 10, "b": 3}, 20) == {"a": 10, "b": 3}
    assert water_fill({"a": 60, "b": 40, "c": 12, "d": 5}, 60) == {
        "a": 22,
        "b": 21,
        "c": 12,
        "d": 5,
    }
    shares = water_fill(COUNTS, 50)
    assert sum(shares.values()) == 50
    assert shares["telehealth"] == 3 and shares["school"] == 5 and shares["telecom"] == 8
    assert shares["airline"] - shares["movie"] in (0, 1)


def test_high_mix_downsamples_productive_domains_only() -> None:
    spec = BUILTIN_MIXES["high"].model_copy(update={"size": 60})
    selected, comp = build_mix(spec, pool(), ["runs/c1"])
    assert comp.selected == len(selected) == 60 and comp.shortfall == 0
    assert comp.successes == sum(COUNTS.values())
    by_domain = {d: s.selected for d, s in comp.by_domain.items() if s.selected}
    # Level 16: the three small domains keep everything, retail (12) too, and the two
    # productive domains are cut to the same share.
    assert by_domain == {
        "airline": 16,
        "movie": 16,
        "retail": 12,
        "school": 5,
        "telecom": 8,
        "telehealth": 3,
    }
    assert set(comp.by_domain) == set(domain_names())  # every domain is reported, even empty
    assert all(e.reward == 1.0 for e in selected)
    assert sum(comp.by_family.values()) == 60 and set(comp.by_family) <= {"anger", "fear", "none"}


def test_low_mix_uses_only_its_four_domains() -> None:
    selected, comp = build_mix(BUILTIN_MIXES["low"], pool())
    assert {e.domain for e in selected} == {"airline", "retail", "telecom", "telehealth"}
    assert comp.selected == 60 + 12 + 8 + 3  # below the default size: everything is kept
    assert comp.shortfall == BUILTIN_MIXES["low"].size - comp.selected  # type: ignore[operator]


def test_mix_is_deterministic_whatever_the_input_order() -> None:
    spec = MixSpec(name="m", size=40, per_domain_cap=20, seed=7)
    first, comp1 = build_mix(spec, pool())
    shuffled = pool()
    random.Random(3).shuffle(shuffled)
    second, comp2 = build_mix(spec, shuffled)
    assert keys(first) == keys(second) and comp1 == comp2
    other, _ = build_mix(spec.model_copy(update={"seed": 8}), pool())
    assert keys(other) != keys(first)  # the seed matters


def records(episodes: list[Episode]) -> list[str]:
    return [model_json(e) for e in episodes]


def rerun(episodes: list[Episode], **update: object) -> list[Episode]:
    """The same rollouts as another collection holds them (its own timings, say)."""
    return [e.model_copy(update=update) for e in episodes]


def with_reasoning(episodes: list[Episode], text: str) -> list[Episode]:
    return [
        e.model_copy(
            update={
                "messages": [
                    m.model_copy(update={"reasoning": text}) if m.role == "assistant" else m
                    for m in e.messages
                ]
            }
        )
        for e in episodes
    ]


def test_mix_does_not_depend_on_the_order_of_the_collections() -> None:
    # D3: two collections of the same tasks and trials; the records differ beyond role, text
    # and calls (reasoning, timings), so only a digest of the whole record orders them.
    a = pool()
    b = rerun(with_reasoning(pool(), "B thinks first."), duration_s=2.5)
    spec = MixSpec(name="m", size=30, seed=1)
    ab, comp_ab = build_mix(spec, a + b)
    ba, comp_ba = build_mix(spec, b + a)
    assert records(ab) == records(ba) and comp_ab == comp_ba
    # Exact duplicates (same conversation, other timings): the same copy stays either way.
    c = rerun(pool(), duration_s=9.0)
    ac, _ = build_mix(spec, a + c)
    ca, _ = build_mix(spec, c + a)
    assert records(ac) == records(ca)


def test_duplicate_conversations_are_dropped_and_counted() -> None:
    # D4: the same rollout in two collections (exit / no-exit of the same seeds) is one row.
    spec = MixSpec(name="m")
    single, alone = build_mix(spec, pool())
    both, comp = build_mix(spec, pool() + rerun(pool(), duration_s=3.0))
    assert alone.duplicates_dropped == 0
    assert comp.successes == 2 * alone.successes
    assert comp.duplicates_dropped == alone.successes
    assert comp.selected == len(both) == len(single)
    assert comp.by_domain["airline"].duplicates == COUNTS["airline"]
    assert comp.by_domain["airline"].after_caps == COUNTS["airline"]
    assert len({training_digest(e) for e in both}) == len(both)
    # Different reasoning is different training content: both stay.
    kept, other = build_mix(spec, pool() + with_reasoning(pool(), "Think."))
    assert other.duplicates_dropped == 0 and len(kept) == 2 * len(single)
    # A composition written before the field existed still loads.
    old = comp.model_dump(mode="json")
    del old["duplicates_dropped"], old["violated"]
    assert MixComposition.model_validate(old).duplicates_dropped == 0


def test_rollouts_that_broke_a_policy_rule_never_enter_a_mix() -> None:
    # D1: reward 1.0 but a hard rule broken is "violated", not training data.
    clean = [scored(episode("movie", f"c{i}")) for i in range(3)]
    broke = [scored(episode("movie", f"v{i}"), "movie.confirm_before_write") for i in range(4)]
    selected, comp = build_mix(MixSpec(name="m"), clean + broke)
    assert keys(selected) == keys(clean)
    assert comp.successes == 3 and comp.violated == 4 and comp.rollouts_seen == 7


def test_caps_families_and_per_task_limits() -> None:
    spec = MixSpec(
        name="capped",
        domains=["airline", "movie", "retail"],
        per_domain_cap=10,
        domain_caps={"movie": 4},
        families=["anger"],
    )
    selected, comp = build_mix(spec, pool())
    assert comp.by_domain["airline"].selected == 10
    assert comp.by_domain["movie"].selected == 4
    assert comp.by_domain["retail"].selected == 4  # 12 successes, a third of them angry
    assert {e.emotion.family for e in selected if e.emotion} == {"anger"}
    # Distinct conversations (reasoning): identical ones would be dropped as duplicates.
    trials = [episode("movie", "same", trial=t, reasoning=f"try {t}") for t in range(5)]
    one_each, _ = build_mix(MixSpec(name="one", max_per_task=2), trials)
    assert len(one_each) == 2


def test_spec_files_and_builtins_resolve(tmp_path: Path) -> None:
    yaml_file = tmp_path / "mixes.yaml"
    yaml_file.write_text(
        "mixes:\n  - name: tiny\n    domains: [movie]\n    size: 3\n    seed: 2\n"
        "  - name: high\n    size: 7\n"
    )
    assert resolve_spec("tiny", yaml_file).size == 3
    assert resolve_spec("high", yaml_file).size == 7  # the file overrides the built-in
    assert resolve_spec("low", yaml_file) == BUILTIN_MIXES["low"]
    json_file = tmp_path / "one.json"
    json_file.write_text(json.dumps({"name": "solo", "domains": "all", "size": 5}))
    assert resolve_spec("solo", json_file).domains == "all"
    with pytest.raises(MixError, match="known mixes"):
        resolve_spec("nope")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "size": -1}))
    with pytest.raises(MixError, match="not a valid mix spec"):
        resolve_spec("x", bad)
    with pytest.raises(MixError, match="unknown domains"):
        build_mix(MixSpec(name="x", domains=["atlantis"]), pool())


def test_written_mix_round_trips(tmp_path: Path) -> None:
    spec = MixSpec(name="small", size=10)
    selected, comp = build_mix(spec, pool())
    folder = write_mix(tmp_path, selected, comp)
    assert folder == tmp_path / "small"
    assert keys(read_episodes(folder / EPISODES_FILE)) == keys(selected)
    saved = MixComposition.model_validate_json((folder / COMPOSITION_FILE).read_text())
    assert saved == comp and saved.spec.size == 10


def test_broken_spec_files_raise_mix_errors(tmp_path: Path) -> None:
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("mixes: [name: {\n")
    with pytest.raises(MixError, match="not valid YAML"):
        resolve_spec("x", bad_yaml)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{")
    with pytest.raises(MixError, match="not valid JSON"):
        resolve_spec("x", bad_json)
    with pytest.raises(MixError, match=r"absent\.json: no such file"):
        resolve_spec("x", tmp_path / "absent.json")
