"""Bad command lines: every one exits 2 with one line naming the input, never a traceback.

Each row builds its arguments in a fresh folder (files that are folders, folders that are
files, non-UTF-8 bytes, half-written manifests, damaged results) and runs the CLI in-process.
A few rows need real argv bytes (0xFF), so they run the command as a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tau_emotion.cli.main import app

runner = CliRunner()

ORACLE = ["run", "--domain", "airline", "--num-tasks", "1", "--agent", "oracle"]
MODEL = ["--agent-model", "m"]
DEAD_URL = "http://127.0.0.1:9/v1"  # discard port: nothing listens


def _file(path: Path, data: bytes = b"x\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _finished_run(tmp: Path) -> Path:
    out = tmp / "run"
    result = runner.invoke(app, [*ORACLE, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _half_manifest(tmp: Path) -> list[str]:
    out = _finished_run(tmp)
    text = (out / "manifest.json").read_text()
    (out / "manifest.json").write_text(text[: len(text) // 2])  # killed mid-write
    return [*ORACLE, "--out", str(out), "--resume"]


def _results_folder(tmp: Path) -> Path:
    out = tmp / "run"
    (out / "results.jsonl").mkdir(parents=True)
    return out


def _garbage_results(tmp: Path) -> Path:
    out = _finished_run(tmp)
    good = (out / "results.jsonl").read_text()
    (out / "results.jsonl").write_text("this is not json\n" + good)
    return out


def _damaged_manifest(tmp: Path) -> Path:
    out = _finished_run(tmp)
    (out / "manifest.json").write_text('{"config": ')  # killed mid-write
    return out


def _empty_run(tmp: Path) -> Path:
    out = _finished_run(tmp)
    (out / "results.jsonl").write_text("")
    return out


def _task_file(tmp: Path, data: bytes) -> list[str]:
    return [*ORACLE, "--tasks", str(_file(tmp / "tasks.jsonl", data)), "--out", str(tmp / "o")]


def _few_shot(tmp: Path, path: Path) -> list[str]:
    return [
        *["run", "--domain", "airline", "--num-tasks", "1", "--agent", "few-shot", *MODEL],
        *["--agent-base-url", DEAD_URL, "--few-shot-file", str(path), "--out", str(tmp / "o")],
    ]


def _cache_file_is_a_folder(tmp: Path) -> list[str]:
    (tmp / "c" / "agent.jsonl").mkdir(parents=True)
    return [
        *["run", "--domain", "airline", "--num-tasks", "1", *MODEL, "--agent-base-url", DEAD_URL],
        *["--cache-dir", str(tmp / "c"), "--out", str(tmp / "o")],
    ]


Case = tuple[str, Callable[[Path], list[str]], str]

CASES: list[Case] = [
    (
        "base url: bad IPv6",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-base-url", "http://[::1"],
        "--agent-base-url 'http://[::1' is not a valid URL",
    ),
    (
        "base url: ftp",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-base-url", "ftp://h/v1"],
        "--agent-base-url 'ftp://h/v1' must be an http:// or https:// URL",
    ),
    (
        "base url: no scheme",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-base-url", "127.0.0.1:8000/v1"],
        "--agent-base-url '127.0.0.1:8000/v1' has no scheme: did you mean "
        "'http://127.0.0.1:8000/v1'?",
    ),
    (
        "base url: a bare host",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-base-url", "localhost:8000/v1"],
        "--agent-base-url 'localhost:8000/v1' has no scheme: did you mean "
        "'http://localhost:8000/v1'?",
    ),
    (
        "--cache-mode replay without --cache-dir",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--cache-mode", "replay"],
        "--cache-mode replay needs --cache-dir",
    ),
    (
        "--cache-mode record without --cache-dir",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--cache-mode", "record"],
        "--cache-mode record needs --cache-dir",
    ),
    (
        "--agent-price-input-per-mtok nan",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-price-input-per-mtok", "nan"],
        "--agent-price-input-per-mtok: Input should be a finite number",
    ),
    (
        "--user-price-output-per-mtok -1",
        lambda t: [*ORACLE, "--user-model", "u", "--user-price-output-per-mtok", "-1"],
        "--user-price-output-per-mtok: Input should be greater than or equal to 0",
    ),
    (
        "--agent-model local: a folder",
        lambda t: [*ORACLE[:6], "tool-calling", "--agent-model", f"local:{t}"],
        "is a folder, not a GGUF model file",
    ),
    (
        "--agent-model local: not GGUF",
        lambda t: [*ORACLE[:6], "tool-calling", "--agent-model", f"local:{_file(t / 'm.gguf')}"],
        "m.gguf is not a GGUF model file",
    ),
    (
        "base url: bad port",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-base-url", "http://h:99999/v1"],
        "is not a valid URL",
    ),
    (
        "user base url: no host",
        lambda t: [*ORACLE, "--user-model", "u", "--user-base-url", "http:///v1"],
        "--user-base-url 'http:///v1' has no host",
    ),
    ("--out is a file", lambda t: [*ORACLE, "--out", str(_file(t / "f"))], "is a file"),
    (
        "--out cannot be created",
        lambda t: [*ORACLE, "--out", "/proc/tau-emotion-nope/out"],
        "--out /proc/tau-emotion-nope/out cannot be created",
    ),
    (
        "--cache-dir is a file",
        lambda t: [*ORACLE, "--cache-dir", str(_file(t / "c")), "--out", str(t / "o")],
        "--cache-dir",
    ),
    (
        "--few-shot-file missing",
        lambda t: _few_shot(t, t / "missing.jsonl"),
        "--few-shot-file",
    ),
    (
        "--few-shot-file not UTF-8",
        lambda t: _few_shot(t, _file(t / "demo.jsonl", b'{"messages": "\xff\xfe"}\n')),
        "is not UTF-8 text",
    ),
    (
        "--tasks not UTF-8",
        lambda t: _task_file(t, b"\xff\xfe{}\n"),
        "tasks.jsonl is not UTF-8 text",
    ),
    (
        "--tasks garbage line",
        lambda t: _task_file(t, b"{nope\n"),
        "tasks.jsonl:1: not a valid task",
    ),
    ("--tasks is missing", lambda t: [*ORACLE, "--tasks", str(t / "none.jsonl")], "--tasks"),
    (
        "--tasks, a gold action naming no tool",
        lambda t: _task_file(
            t,
            Path(__file__)
            .parents[1]
            .joinpath("src/tau_emotion/domains/airline/tasks/test.jsonl")
            .read_bytes()
            .splitlines()[0]
            .replace(b'"name":"', b'"name":"no_such_', 1)
            + b"\n",
        ),
        "is no tool of the domain",
    ),
    (
        "--tasks, a train build run as test",
        lambda t: [
            *ORACLE,
            "--tasks",
            str(_file(t / "build" / "tasks" / "airline" / "train.jsonl").parents[2]),
        ],
        "it holds airline/train.jsonl (choose with --split",
    ),
    ("half-written manifest", _half_manifest, "manifest.json is damaged"),
    (
        "--resume, results.jsonl is a folder",
        lambda t: [*ORACLE, "--out", str(_results_folder(t)), "--resume"],
        "results.jsonl is not a file",
    ),
    (
        "metrics: garbage line",
        lambda t: ["metrics", str(_garbage_results(t))],
        "results.jsonl is damaged: line 1",
    ),
    (
        "metrics: results.jsonl is a folder",
        lambda t: ["metrics", str(_results_folder(t))],
        "results.jsonl is not a file",
    ),
    (
        "metrics: --json is a folder",
        lambda t: ["metrics", str(_finished_run(t)), "--json", str(t)],
        "is a folder, not a file",
    ),
    ("view: garbage line", lambda t: ["view", str(_garbage_results(t))], "is damaged: line 1"),
    (
        "report: garbage line",
        lambda t: ["report", str(_garbage_results(t)), "--out", str(t / "r.html")],
        "is damaged: line 1",
    ),
    (
        "emotions map: --output is a folder",
        lambda t: ["emotions", "map", "I am upset", "--output", str(t)],
        "is a folder, not a file",
    ),
    (
        "emotions map: --input not UTF-8",
        lambda t: ["emotions", "map", "--input", str(_file(t / "in.jsonl", b"\xff\n"))],
        "is not UTF-8 text",
    ),
    (
        "--config missing",
        lambda t: [*ORACLE, "--config", str(t / "none.toml")],
        "none.toml",
    ),
    (
        "--config not TOML",
        lambda t: [*ORACLE, "--config", str(_file(t / "c.toml", b"trials = [\n"))],
        "c.toml",
    ),
    (
        "--config not UTF-8",
        lambda t: [*ORACLE, "--config", str(_file(t / "c.toml", b"seed = '\xff'\n"))],
        "c.toml",
    ),
    ("--concurrency 0", lambda t: [*ORACLE, "--concurrency", "0"], "--concurrency"),
    ("--max-steps 0", lambda t: [*ORACLE, "--max-steps", "0"], "--max-steps"),
    (
        "--max-retries -1",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-max-retries", "-1"],
        "--agent-max-retries",
    ),
    ("--fail-on-error -1", lambda t: [*ORACLE, "--fail-on-error", "-1"], "--fail-on-error"),
    ("--fail-on-error 2.5", lambda t: [*ORACLE, "--fail-on-error", "2.5"], "--fail-on-error"),
    ("--trials 0", lambda t: [*ORACLE, "--trials", "0"], "--trials"),
    ("unknown domain", lambda t: ["run", "--domain", "zoo", "--agent", "oracle"], "'zoo'"),
    (
        "--few-shot-file: not a demonstration",
        lambda t: _few_shot(t, _file(t / "demo.jsonl", b'{"messages": [{"role": "bogus"}]}\n')),
        "demo.jsonl:1: not a demonstration",
    ),
    (
        "--cache-dir holds a folder for its cache file",
        lambda t: _cache_file_is_a_folder(t),
        "c/agent.jsonl",
    ),
    ("--config is a folder", lambda t: [*ORACLE, "--config", str(t)], "is a folder, not a file"),
    (
        "--agent-timeout-s -1",
        lambda t: [*ORACLE[:6], "tool-calling", *MODEL, "--agent-timeout-s", "-1"],
        "--agent-timeout-s",
    ),
    ("--num-tasks 0", lambda t: [*ORACLE[:3], "--num-tasks", "0"], "--num-tasks"),
    (
        "tasks: --tasks garbage",
        lambda t: ["tasks", "--tasks", str(_file(t / "t.jsonl", b"nope\n"))],
        "t.jsonl:1: not a valid task",
    ),
    (
        "report: not a run",
        lambda t: ["report", str(t), "--out", str(t / "r.html")],
        "results.jsonl",
    ),
    ("view: not a run", lambda t: ["view", str(t / "none")], "results.jsonl does not exist"),
    ("export: not a run", lambda t: ["export", str(t / "none")], "none"),
    ("mix: not a run", lambda t: ["mix", "high", "--from", str(t / "none")], "none"),
    (
        "emotions map: --anchors not anchors",
        lambda t: ["emotions", "map", "x", "--anchors", str(_file(t / "a.json"))],
        "cannot use anchors",
    ),
    (
        "emotions map: --classifier missing",
        lambda t: ["emotions", "map", "x", "--classifier", str(t / "none.npz")],
        "cannot use classifier",
    ),
    ("view: damaged manifest", lambda t: ["view", str(_damaged_manifest(t))], "manifest.json"),
    (
        "report: damaged manifest",
        lambda t: ["report", str(_damaged_manifest(t)), "--out", str(t / "r.html")],
        "manifest.json is damaged",
    ),
    ("view: no episodes", lambda t: ["view", str(_empty_run(t))], "holds no episodes"),
    ("view: --limit 0", lambda t: ["view", str(_finished_run(t)), "--limit", "0"], "--limit 0"),
    (
        "report: --judge-base-url ftp",
        lambda t: [
            *["report", str(_finished_run(t)), "--out", str(t / "r.html")],
            *["--judge-model", "m", "--judge-base-url", "ftp://h/v1"],
        ],
        "--judge-base-url 'ftp://h/v1' must be an http:// or https:// URL",
    ),
    (
        "report: --out under a file",
        lambda t: ["report", str(_finished_run(t)), "--out", str(_file(t / "f") / "r.html")],
        "is a file, not a folder",
    ),
    (
        "tasks: an empty task file",
        lambda t: ["tasks", "--tasks", str(_file(t / "t.jsonl", b""))],
        "no tasks selected (task file",
    ),
    (
        "emotions check-written: unknown --emotion",
        lambda t: ["emotions", "check-written", str(t), "--emotion", "nope"],
        "--emotion 'nope' is not an emotion",
    ),
    (
        "emotions check-written: no texts",
        lambda t: ["emotions", "check-written", str(t)],
        "no written texts in",
    ),
    (
        "emotions anchors: fewer than a set needs",
        lambda t: [
            *["emotions", "anchors", "--templates-only", "--per-condition", "2"],
            *["--out", str(t / "a.json.gz")],
        ],
        "--per-condition 2: an anchor set needs 10",
    ),
    (
        "emotions anchors: no written files",
        lambda t: ["emotions", "anchors", "--written", str(t), "--out", str(t / "a.json.gz")],
        "no written anchor files",
    ),
    (
        "emotions anchors: --base-url ftp",
        lambda t: [
            *["emotions", "anchors", "--model", "m", "--base-url", "ftp://h/v1"],
            *["--out", str(t / "a.json.gz")],
        ],
        "--base-url 'ftp://h/v1' must be an http:// or https:// URL",
    ),
    ("show: unknown task", lambda t: ["show", "airline/nope"], "no task 'nope'"),
    ("domains generate: unknown", lambda t: ["domains", "generate", "zoo", "--check"], "zoo"),
    # Mistakes typer finds while parsing: one line too, not its boxed usage panel.
    ("parse: unknown root option", lambda t: ["--bogus"], "No such option: --bogus"),
    ("parse: unknown run option", lambda t: ["run", "--bogus"], "(see 'tau-emotion run --help')"),
    (
        "parse: --trials not a number",
        lambda t: [*ORACLE, "--trials", "abc"],
        "Invalid value for '--trials': Input should be a valid integer",
    ),
    (
        "parse: --executor not a choice",
        lambda t: [*ORACLE, "--executor", "bogus"],
        "Invalid value for '--executor': 'bogus' is not one of 'local', 'ray'",
    ),
    (
        "parse: train sft --lr-scheduler not a choice",
        lambda t: ["train", "sft", "--lr-scheduler", "nope"],
        "Invalid value for '--lr-scheduler': 'nope' is not one of",
    ),
    (
        "parse: tracer walk without --domain",
        lambda t: ["tracer", "walk"],
        "Missing option '--domain'. (see 'tau-emotion tracer walk --help')",
    ),
]


def _assert_one_clean_line(exit_code: int, output: str, expected: str) -> None:
    assert "Traceback" not in output, output
    assert exit_code == 2, output
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(errors) >= 1 and len(set(errors)) == 1, output
    assert expected in errors[0], output


@pytest.mark.parametrize(("name", "build", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_exit_2(
    name: str, build: Callable[[Path], list[str]], expected: str, tmp_path: Path
) -> None:
    args = build(tmp_path)
    if "--out" not in args and args[0] == "run":
        args += ["--out", str(tmp_path / "out")]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    _assert_one_clean_line(result.exit_code, result.output, expected)


def test_a_key_given_for_its_variable_name_is_refused_and_never_stored(tmp_path: Path) -> None:
    """`--agent-api-key-env sk-...` once went into manifest.json in clear."""
    key = "sk-proj-SECRETSECRET1234"
    out = tmp_path / "out"
    args = [*ORACLE[:6], "tool-calling", *MODEL, "--agent-base-url", DEAD_URL, "--out", str(out)]
    result = runner.invoke(app, [*args, "--agent-api-key-env", key])
    _assert_one_clean_line(result.exit_code, result.output, "--agent-api-key-env: is not an")
    assert "SECRET" not in result.output and not out.exists()
    config = _file(tmp_path / "c.toml", f'[agent_model]\nmodel = "m"\napi_key = "{key}"\n'.encode())
    result = runner.invoke(app, [*args, "--config", str(config)])
    _assert_one_clean_line(
        result.exit_code, result.output, "give that variable's name as api_key_env"
    )
    assert "SECRET" not in result.output and not out.exists()


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (
            ["report", "{run}", "--judge-model", "m", "--judge-api-key-env", "{key}"],
            "--judge-api-key-env",
        ),
        (
            [
                "emotions",
                "map",
                "calm",
                "--embedder",
                "openai",
                "--embed-model",
                "m",
                "--api-key-env",
                "{key}",
            ],
            "--api-key-env",
        ),
        (
            ["emotions", "anchors", "--model", "m", "--api-key-env", "{key}", "--out", "{out}"],
            "--api-key-env",
        ),
    ],
    ids=["report judge", "emotions map", "emotions anchors"],
)
def test_every_key_variable_option_refuses_a_key(
    args: list[str], option: str, tmp_path: Path
) -> None:
    """The run's options were checked first; the judge's and the embedder's are the same leak."""
    key = "sk-proj-SECRETSECRET1234"
    run = _finished_run(tmp_path) if "{run}" in args else tmp_path
    filled = [a.format(run=run, key=key, out=tmp_path / "a.json.gz") for a in args]
    result = runner.invoke(app, filled)
    _assert_one_clean_line(result.exit_code, result.output, option)
    assert "is not an environment variable name" in result.output
    assert "SECRET" not in result.output


def test_a_bare_group_still_shows_its_help() -> None:
    result = runner.invoke(app, ["tracer"])
    assert result.exit_code == 2 and "error: " not in result.output
    assert "Usage: tau-emotion tracer" in result.output and "walk" in result.output


def _cli(*args: bytes | str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "tau_emotion.cli.main", *args],
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_raw_bytes_on_the_command_line_never_crash(tmp_path: Path) -> None:
    # argv bytes that are not UTF-8 arrive as lone surrogates (surrogateescape).
    shown = _cli("show", b"\xff/x", cwd=tmp_path)
    text = shown.stderr.decode("utf-8")
    _assert_one_clean_line(shown.returncode, text, "unknown domain")
    mapped = _cli("emotions", "map", b"so angry \xff\xfe about this", cwd=tmp_path)
    assert mapped.returncode == 0 and b"Traceback" not in mapped.stderr, mapped.stderr
    record = json.loads(mapped.stdout.decode("utf-8").splitlines()[0])
    assert "\ufffd" in record["text"] and record["condition_id"]


def test_a_lone_surrogate_in_emotions_map_text_is_replaced(tmp_path: Path) -> None:
    out = tmp_path / "mapped.jsonl"
    result = runner.invoke(app, ["emotions", "map", "I am \ud800 furious", "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["text"] == "I am \ufffd furious"


def test_a_failing_output_is_found_before_anything_is_written(tmp_path: Path) -> None:
    """`report --json` and `metrics --json` naming a folder fail before the HTML report or
    the run's metrics.json are written, not after."""
    run = _finished_run(tmp_path)
    metrics = run / "metrics.json"
    metrics.unlink(missing_ok=True)
    result = runner.invoke(app, ["metrics", str(run), "--json", str(tmp_path)])
    _assert_one_clean_line(result.exit_code, result.output, "is a folder, not a file")
    assert not metrics.exists()
    html = tmp_path / "r.html"
    result = runner.invoke(app, ["report", str(run), "--out", str(html), "--json", str(tmp_path)])
    _assert_one_clean_line(result.exit_code, result.output, "--json")
    assert not html.exists()


def test_a_reader_that_stops_early_is_no_error(tmp_path: Path) -> None:
    """`tau-emotion tasks --split train | head -1`: the pipe closing is not the user's mistake.
    (The listing, about 1 MB, is far larger than a pipe's buffer, so it meets the closed pipe.)"""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    listing = subprocess.Popen(
        [sys.executable, "-m", "tau_emotion.cli.main", "tasks", "--split", "train"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=env,
    )
    assert listing.stdout is not None and listing.stderr is not None
    assert listing.stdout.readline().strip()
    listing.stdout.close()  # as `head -1` does once it has its line
    stderr = listing.stderr.read().decode("utf-8")
    assert listing.wait(timeout=120) == 1
    assert "error" not in stderr and "Traceback" not in stderr, stderr
