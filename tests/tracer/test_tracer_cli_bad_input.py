"""Bad input to `tau-emotion tracer ...`: one line ``error: ...`` naming the input (option,
file, line), exit status 2, no traceback, and nothing written that was not there before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from cli_errors import one_error_line
from folder_bytes import folder_bytes
from tau_emotion.cli.main import app
from tau_emotion.tracer import build
from tau_emotion.tracer.config import DEFAULT_INTENTS, DEFAULT_LENGTHS, TEST_INTENTS, BuildConfig
from tau_emotion.tracer.jsonl import read_jsonl, stage_path
from tau_emotion.tracer.records import GroundResult, Walk

runner = CliRunner()


def _one_error(args: list[str], *expected: str) -> str:
    """Run the command; it must fail with exit 2 and one `error:` line holding `expected`."""
    return one_error_line(runner.invoke(app, ["tracer", *args]), *expected)


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build folder holding airline walks only (a few, so it takes a second)."""
    out = tmp_path_factory.mktemp("walked")
    args = ["tracer", "walk", "--domain", "airline", "--n", "20", "--test-walks", "5"]
    result = runner.invoke(app, [*args, "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def build_dir(walked: Path, tmp_path: Path) -> Path:
    out = tmp_path / "build"
    shutil.copytree(walked, out)
    return out


# 1. --base-url is checked before anything runs.


def test_a_bad_base_url_of_the_judge_is_one_line(tmp_path: Path) -> None:
    args = ["validate", "--domain", "airline", "--out", str(tmp_path), "--judge-model", "m"]
    _one_error([*args, "--base-url", "ftp://x"], "--base-url", "ftp://x")
    assert folder_bytes(tmp_path) == {}


def test_a_malformed_base_url_of_the_graph_model_is_one_line() -> None:
    args = ["graph", "--domain", "airline", "--check", "--model", "m"]
    _one_error([*args, "--base-url", "http://[::1"], "--base-url", "http://[::1")


# 2. A damaged stage file is named, with its line.


@pytest.mark.parametrize(
    ("data", "line", "problem"),
    [
        (b"garbage\n", 1, "not a valid Walk record"),
        (b"garbage\ngarbage\n", 1, "not a valid Walk record"),
        (b"garbage", 1, "not a valid Walk record"),  # no good record before it: not torn
        (b"\xff\xfe\n", 1, "not UTF-8 text"),
    ],
    ids=["one-garbage-line", "two-garbage-lines", "no-newline", "not-utf8"],
)
def test_a_damaged_walks_file_is_named_with_its_line(
    tmp_path: Path, data: bytes, line: int, problem: str
) -> None:
    walks = tmp_path / "airline" / "walks.jsonl"
    walks.parent.mkdir()
    walks.write_bytes(data)
    before = folder_bytes(tmp_path)
    _one_error(
        ["ground", "--domain", "airline", "--out", str(tmp_path), "--quiet"],
        str(walks),
        f"line {line}",
        problem,
    )
    assert folder_bytes(tmp_path) == before


def test_a_bad_last_line_after_good_ones_is_named(build_dir: Path) -> None:
    walks = stage_path(build_dir, "airline", "walks")
    lines = len(walks.read_bytes().splitlines())
    with walks.open("ab") as fh:
        fh.write(b'{"not": "a walk"}\n')  # a whole line (it ends with a newline): not torn
    before = folder_bytes(build_dir)
    _one_error(
        ["ground", "--domain", "airline", "--out", str(build_dir), "--quiet"],
        str(walks),
        f"line {lines + 1}",
    )
    assert folder_bytes(build_dir) == before


def test_a_torn_last_line_is_still_skipped(build_dir: Path) -> None:
    """A line a crash cut short (no newline after it) is what resuming tolerates."""
    walks = stage_path(build_dir, "airline", "walks")
    whole = read_jsonl(walks, Walk)
    with walks.open("ab") as fh:
        fh.write(b'{"id": "airline-w99999", "dom')
    assert read_jsonl(walks, Walk) == whole


@pytest.mark.parametrize(
    ("command", "reads"),
    [("feel", "ground-test.jsonl"), ("validate", "feel-test.jsonl")],
)
def test_a_damaged_input_of_feel_and_validate_is_named(
    tmp_path: Path, command: str, reads: str
) -> None:
    source = tmp_path / "airline" / reads
    source.parent.mkdir()
    source.write_bytes(b"garbage\ngarbage\n")
    before = folder_bytes(tmp_path)
    args = [command, "--domain", "airline", "--out", str(tmp_path), "--quiet"]
    _one_error([*args, "--no-oracle"] if command == "validate" else args, str(source), "line 1")
    assert folder_bytes(tmp_path) == before


def test_a_damaged_output_is_named_before_anything_is_appended(build_dir: Path) -> None:
    ground = stage_path(build_dir, "airline", "ground", "test")
    ground.write_bytes(b"garbage\n")
    before = folder_bytes(build_dir)
    _one_error(
        ["ground", "--domain", "airline", "--out", str(build_dir), "--quiet"],
        str(ground),
        "line 1",
    )
    assert folder_bytes(build_dir) == before


# 3. A stage with no input fails, naming the file and the command that writes it.


@pytest.mark.parametrize(
    ("command", "missing", "before"),
    [
        ("ground", "walks.jsonl", "tracer walk"),
        ("feel", "ground-test.jsonl", "tracer ground"),
        ("validate", "feel-test.jsonl", "tracer feel"),
    ],
)
def test_a_missing_input_stage_file_writes_nothing(
    tmp_path: Path, command: str, missing: str, before: str
) -> None:
    _one_error(
        [command, "--domain", "airline", "--out", str(tmp_path), "--quiet"],
        str(tmp_path / "airline" / missing),
        "does not exist",
        before,
    )
    assert list(tmp_path.iterdir()) == []


# 4. `stats` checks the build folder and --markdown before writing.


def test_stats_of_a_folder_that_is_not_a_build_writes_nothing(tmp_path: Path) -> None:
    _one_error(["stats", str(tmp_path)], str(tmp_path), "not a Tracer build")
    assert list(tmp_path.iterdir()) == []


def test_stats_with_a_folder_as_markdown_writes_nothing(build_dir: Path, tmp_path: Path) -> None:
    before = folder_bytes(build_dir)
    _one_error(["stats", str(build_dir), "--markdown", str(tmp_path)], "--markdown", "folder")
    assert folder_bytes(build_dir) == before


# 5. Counts that cannot be negative or zero.


@pytest.mark.parametrize(
    "args",
    [
        ["walk", "--n", "-1"],
        ["walk", "--n", "0"],
        ["walk", "--test-walks", "-1"],
        ["ground", "--limit", "-1"],
        ["ground", "--limit", "0"],
        ["ground", "--workers", "0"],
        ["ground", "--workers", "-1"],
        ["build", "--workers", "0"],
        ["build", "--train-total", "-1"],
    ],
    ids=lambda a: " ".join(a),
)
def test_out_of_range_counts_are_refused(build_dir: Path, args: list[str]) -> None:
    before = folder_bytes(build_dir)
    result = runner.invoke(
        app, ["tracer", *args, "--domain", "airline", "--out", str(build_dir), "--quiet"]
    )
    assert result.exit_code == 2, result.output
    assert args[1] in result.output and "Traceback" not in result.output
    assert folder_bytes(build_dir) == before


@pytest.mark.parametrize(
    "field",
    [
        {"workers": 0},
        {"workers": -1},
        {"test_walks": -1},
        {"walk_samples": 0},
        {"train_total": -1},
        {"test_targets": {"airline": 0}},
        {"intents": {0: 1.0}},
        {"lengths": {3: -0.5}},
        {"test_intents": {1: 0.0}},
    ],
)
def test_the_build_config_refuses_counts_out_of_range(field: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        BuildConfig(domains=["airline"], **field)  # type: ignore[arg-type]


def test_the_build_config_defaults_are_unchanged() -> None:
    config = BuildConfig(domains=[])
    assert (config.seed, config.train_total, config.walk_samples) == (7, 7600, 4000)
    assert (config.test_walks, config.workers, config.run_oracle) == (1600, 2, True)
    assert config.intents == dict(DEFAULT_INTENTS) and config.lengths == dict(DEFAULT_LENGTHS)
    assert config.test_intents == dict(TEST_INTENTS) and config.test_targets == {}
    assert BuildConfig(domains=["airline"], train_total=0, workers=1).train_total == 0


# 6. Options the commands reject are one line, not a usage box.


def test_an_unknown_domain_is_one_line() -> None:
    _one_error(["walk", "--domain", "zoo"], "--domain", "zoo")


def test_a_missing_drafts_file_is_one_line(build_dir: Path, tmp_path: Path) -> None:
    drafts = tmp_path / "bad.json"
    _one_error(["review", str(build_dir), "--add", str(drafts)], "--add", str(drafts))


# 7. The old spelling of --domain does not silently win.


def test_domain_and_its_old_spelling_together_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_build(*args: object, **kwargs: object) -> Path:
        raise AssertionError("the build must not run")

    monkeypatch.setattr(build, "run_build", no_build)
    args = ["build", "--domain", "airline", "--domains", "retail", "--out", str(tmp_path)]
    _one_error(args, "--domain", "--domains")
    assert list(tmp_path.iterdir()) == []


# 8. The help says what a stage run by hand does not share with `build`.


def test_the_ground_help_says_what_challenges_it_offers() -> None:
    # It said "offers none" while grounding with the default plan, which offers them.
    from tau_emotion.tracer.ground import DEFAULT_PLAN
    from tau_emotion.tracer.ground.challenge import CHALLENGE_SHARE

    assert DEFAULT_PLAN.share == CHALLENGE_SHARE > 0 and not DEFAULT_PLAN.hunt
    result = runner.invoke(app, ["tracer", "ground", "--help"], env={"TERMINAL_WIDTH": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "offers challenges at the default share" in text
    assert "not the one `build` writes" in text


def test_a_good_stage_run_still_works(build_dir: Path) -> None:
    """The checks above leave a good input alone: ground reads the walks and writes."""
    args = ["tracer", "ground", "--domain", "airline", "--out", str(build_dir), "--limit", "2"]
    result = runner.invoke(app, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    grounded = read_jsonl(stage_path(build_dir, "airline", "ground", "test"), GroundResult)
    assert len(grounded) == 2


# 9. `review` of a folder that holds no build is an error, not a clean review.


def test_review_of_a_missing_folder_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "nonexist"
    _one_error(["review", str(missing)], f"build folder {missing} does not exist")
    _one_error(["review", str(missing), "--prune"], str(missing))
    _one_error(["review", str(tmp_path)], str(tmp_path), "not a Tracer build")
    assert list(tmp_path.iterdir()) == []


def test_review_of_a_build_without_a_test_selection_names_it(build_dir: Path) -> None:
    before = folder_bytes(build_dir)
    _one_error(["review", str(build_dir)], str(build_dir), "no test selection")
    assert folder_bytes(build_dir) == before
