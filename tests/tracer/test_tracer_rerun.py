"""A stage or build rerun into a folder it wrote before resumes it only with the same
settings: other settings are refused in one line before anything is written, so two runs'
records never mix. And the train total is split over the domains exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from folder_bytes import folder_bytes
from shipped_domains import SHIPPED_DOMAINS
from tau_emotion.domains import domain_names
from tau_emotion.inputs import InputError
from tau_emotion.tracer import build
from tau_emotion.tracer.build import BuildConfig, run_build, train_shares
from tau_emotion.tracer.cli import app
from tau_emotion.tracer.jsonl import read_jsonl, settings_path, stage_path
from tau_emotion.tracer.records import Walk

from toy_domain import SMALL_BUILD, small_build

runner = CliRunner()


def _walk(out: Path, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["walk", "--domain", "telecom", "--out", str(out), "--quiet", *args])


def test_a_walk_rerun_with_other_settings_is_refused(tmp_path: Path) -> None:
    """It used to append the new run's walks by id: 264 "distinct traces" holding 9
    repeats and a test pool of 10 where 80 were asked for."""
    first = _walk(tmp_path, "--n", "60", "--test-walks", "10")
    assert first.exit_code == 0, first.output
    before = folder_bytes(tmp_path)
    for args, setting in [
        (["--n", "120", "--test-walks", "30"], "test_walks=10, not test_walks=30"),
        (["--n", "120", "--test-walks", "10", "--seed", "8"], "seed=7, not seed=8"),
    ]:
        result = _walk(tmp_path, *args)
        assert isinstance(result.exception, InputError), result.output
        message = str(result.exception)
        assert setting in message and "another --out" in message and str(tmp_path) in message
        assert folder_bytes(tmp_path) == before
    # More samples with the same settings extend the same walks: a resume.
    more = _walk(tmp_path, "--n", "120", "--test-walks", "10")
    assert more.exit_code == 0, more.output
    walks = read_jsonl(stage_path(tmp_path, "telecom", "walks"), Walk)
    assert len({w.trace for w in walks}) == len(walks)
    assert f"{len(walks)} distinct traces (10 test" in more.output
    fresh = tmp_path / "fresh"
    assert _walk(fresh, "--n", "120", "--test-walks", "10").exit_code == 0
    assert (
        folder_bytes(fresh)["telecom/walks.jsonl"] == folder_bytes(tmp_path)["telecom/walks.jsonl"]
    )


def test_walk_counts_traces_not_lines(tmp_path: Path) -> None:
    """A walks file from before settings were recorded is resumed unchecked; the command
    then says how many walks repeat a trace instead of calling every line distinct."""
    assert _walk(tmp_path, "--n", "60", "--test-walks", "10").exit_code == 0
    settings_path(stage_path(tmp_path, "telecom", "walks")).unlink()
    result = _walk(tmp_path, "--n", "300", "--test-walks", "10", "--seed", "8")
    assert result.exit_code == 0, result.output
    walks = read_jsonl(stage_path(tmp_path, "telecom", "walks"), Walk)
    traces = len({w.trace for w in walks})
    assert traces < len(walks)
    assert f"{traces} distinct traces" in result.output
    assert f"{len(walks) - traces} walks repeat an earlier trace" in result.output


@pytest.fixture(scope="module")
def toy_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    root = tmp_path_factory.mktemp("rerun")
    return small_build(root)


def test_a_build_rerun_with_another_seed_is_refused_before_anything_is_written(
    toy_build: tuple[Path, object],
) -> None:
    """It used to keep the seed-7 walks, feelings and verdicts, redo the coverage with seed
    8 and record seed 8 in the manifest."""
    out, toy = toy_build
    before = folder_bytes(out)
    config = SMALL_BUILD.model_copy(update={"seed": 8})
    with pytest.raises(InputError, match=r"walks.jsonl was made with seed=7, not seed=8"):
        run_build(config, out, show=False, domains=[toy])  # type: ignore[list-item]
    assert folder_bytes(out) == before


def test_a_build_resumes_with_the_same_settings_and_a_larger_train_total(
    toy_build: tuple[Path, object], tmp_path: Path
) -> None:
    """The gap-fill of a train split reruns the build with a larger train total: a resume.
    So is a rerun with other workers (they change no result)."""
    out, toy = toy_build
    copy = tmp_path / "build"
    copy.mkdir()
    for name, data in folder_bytes(out).items():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes(data)
    config = SMALL_BUILD.model_copy(update={"train_total": 6, "workers": 2})
    final = run_build(config, copy, show=False, domains=[toy])  # type: ignore[list-item]
    assert (final / "toy" / "train.jsonl").read_text().count("\n") == 6


def test_a_stage_command_does_not_append_to_a_builds_files(
    toy_build: tuple[Path, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ground` grounds in one pass with the default challenge plan and `feel` with another
    seed draws other feelings: either appended to the build's files would mix two kinds of
    record."""
    from tau_emotion.tracer import cli
    from tau_emotion.tracer.profile import profile_for

    out, toy = toy_build
    profile = profile_for(toy)  # type: ignore[arg-type]
    monkeypatch.setattr(cli, "_domains", lambda spec, option="--domain": ["toy"])
    monkeypatch.setattr("tau_emotion.tracer.profile.load_profile", lambda name: profile)
    before = folder_bytes(out)
    ground = runner.invoke(app, ["ground", "--domain", "toy", "--out", str(out), "--quiet"])
    assert isinstance(ground.exception, InputError), ground.output
    assert 'made_by="build", not made_by="ground"' in str(ground.exception)
    feel = runner.invoke(
        app, ["feel", "--domain", "toy", "--out", str(out), "--seed", "8", "--quiet"]
    )
    assert isinstance(feel.exception, InputError), feel.output
    assert "seed=7, not seed=8" in str(feel.exception)
    assert folder_bytes(out) == before


def test_the_train_total_is_split_exactly() -> None:
    assert train_shares(3, ["bank", "telecom"]) == {"bank": 2, "telecom": 1}
    assert sum(train_shares(1, domain_names()).values()) == 1
    assert sum(train_shares(7600, domain_names()).values()) == 7600  # whatever domains there are
    # The shipped sets' total: the ten shipped domains divide it, so each first target is 760.
    # (A domain added since takes its share of a `--domain all` build: docs/domains.md.)
    assert set(train_shares(7600, list(SHIPPED_DOMAINS)).values()) == {760}


def _targets(
    monkeypatch: pytest.MonkeyPatch, names: list[str], total: int, caps: dict[str, int]
) -> tuple[dict[str, int], int]:
    """The train targets `_build_all` ends with, and the tasks it keeps, with each domain's
    split yielding up to its cap (none: its whole target)."""
    kept: dict[str, int] = {}

    def fake_split(config, out, profile, split, target, *args):  # type: ignore[no-untyped-def]
        kept[profile] = min(target, caps.get(profile, target))
        return kept[profile]

    monkeypatch.setattr(build, "build_split", fake_split)
    config = BuildConfig(domains=names, splits=["train"], train_total=total)
    profiles = {n: n for n in names}
    targets = build._build_all(config, Path(), profiles, None, False, None)  # type: ignore[arg-type]
    return targets, sum(kept.values())


def test_the_build_asks_each_domain_for_its_exact_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--train-total 3` over two domains used to build 2 + 2 tasks."""
    targets, kept = _targets(monkeypatch, ["bank", "telecom"], 3, {})
    assert targets == {"bank": 2, "telecom": 1} and kept == 3


def test_the_shipped_train_totals_are_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped train sets: 7,600 over the ten shipped domains, retail, school and
    travel running short at 459, 458 and 671 (docs/tracer.md), the other seven filling the
    gap to 859 each (the gap is rounded up per domain: 7,601 tasks). A figure of the shipped
    build, so it is computed over `SHIPPED_DOMAINS`, not over every folder found."""
    short = {"retail": 459, "school": 458, "travel": 671}
    targets, kept = _targets(monkeypatch, list(SHIPPED_DOMAINS), 7600, short)
    assert {d: t for d, t in targets.items() if d not in short} == {
        d: 859 for d in SHIPPED_DOMAINS if d not in short
    }
    assert kept == 7601
