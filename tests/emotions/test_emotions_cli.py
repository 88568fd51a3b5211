"""The `emotions` sub-app: list, batch map, and LLM anchors against a loopback fake server."""

from __future__ import annotations

import json
import re
import sys
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from loopback import bypass_proxies, loopback, serving
from tau_emotion.emotions.anchors import anchor_problem, read_anchor_set
from tau_emotion.emotions.cli import app
from tau_emotion.emotions.space import all_conditions

runner = CliRunner()


def test_list_prints_594_ids() -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    ids = result.output.split()
    assert len(ids) == 594 and ids[0] == all_conditions()[0].id
    as_json = runner.invoke(app, ["list", "--json"]).output.splitlines()
    assert json.loads(as_json[5])["condition_id"] == all_conditions()[5].id


def test_map_single_text_prints_json() -> None:
    result = runner.invoke(app, ["map", "I've been waiting for weeks and nobody calls me back"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["text"].startswith("I've been waiting")
    assert record["condition_id"] == ".".join(
        record[h] for h in ("family", "emotion", "politeness", "urgency", "trust")
    )


def test_batch_map_round_trips_extra_fields(tmp_path: Path) -> None:
    source = tmp_path / "feelings.jsonl"
    rows = [
        {"id": 1, "text": "Furious, in a hurry, and sure the agent is lying.", "meta": {"a": [1]}},
        {"id": 2, "text": "Calm and grateful, no rush at all.", "task": "airline/7"},
    ]
    source.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    out = tmp_path / "out" / "conditions.jsonl"
    result = runner.invoke(app, ["map", "--input", str(source), "--output", str(out)])
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(written) == 2
    for row, record in zip(rows, written, strict=True):
        for key, value in row.items():
            assert record[key] == value
        assert set(record["confidence"]) == {"family", "emotion", "politeness", "urgency", "trust"}
        assert anchor_problem(record["instruction"]) is None


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "line 2: not valid JSON"),
        ("[1, 2]", "line 2: expected a JSON object, got list"),
        ('{"txt": "typo"}', "line 2: missing the 'text' field"),
        ('{"text": "   "}', "line 2: 'text' must be a non-empty string"),
        ('{"text": 42}', "line 2: 'text' must be a non-empty string"),
    ],
)
def test_batch_map_rejects_bad_lines_clearly(tmp_path: Path, line: str, problem: str) -> None:
    source = tmp_path / "feelings.jsonl"
    source.write_text('{"text": "fine"}\n' + line + "\n", encoding="utf-8")
    out = tmp_path / "conditions.jsonl"
    result = runner.invoke(app, ["map", "--input", str(source), "--output", str(out)])
    assert result.exit_code == 2
    assert problem in result.output
    assert not out.exists()


def test_map_needs_exactly_one_input() -> None:
    result = runner.invoke(app, ["map"])
    assert result.exit_code == 2 and "either a TEXT" in result.output


# --- the anchors command against a fake OpenAI-compatible server on 127.0.0.1 -------------

_GOOD = [
    "You keep checking the screen, and you want the agent to tell you what happens next today.",
    "You lean on every word the agent says, and you want this handled within the next hour or so.",
    "You write short notes, you ask for the details twice, and you want a clean answer at the end.",
    "You picture the outcome over and over, and you want the agent to walk you through it slowly.",
    "You thank the agent after each reply, and you want the matter closed before you log off tonight.",
    "You reread your own messages before sending, and you want the agent to say it will be sorted.",
    "You ask what happens if it goes wrong, and you want a plain answer you can hold the agent to.",
    "You mention the deadline once, and you want the agent to confirm each number before agreeing.",
    "You keep the conversation short and factual, and you want your account put back the way it was.",
    "You hesitate before each answer, and you want someone to take the problem off your hands today.",
    "You explain the situation carefully, and you want the agent to repeat the plan back to you once.",
]
_BAD = [
    "You feel frustrated and you want the agent to fix it right away, with no more excuses please.",
    "I am so worried about this and I want somebody to fix it before the end of the day, honestly.",
    "You want it.",
]


class _FakeOpenAI:
    """Answers chat completions with a mix of valid, invalid and duplicate descriptions."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                fake.requests.append({"path": self.path, "body": body})
                prompt = body["messages"][-1]["content"]
                condition = re.search(r"Condition: (\S+)", prompt)
                tag = condition.group(1) if condition else "?"
                # A label-free per-condition number keeps texts unique across conditions.
                case = zlib.crc32(tag.encode())
                items = [f"{g[:-1]}, as noted in case {case}." for g in _GOOD]
                content = json.dumps({"descriptions": _BAD + items + items[:2]})
                payload = {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = loopback(Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[_FakeOpenAI]:
    bypass_proxies(monkeypatch)
    monkeypatch.setenv("FAKE_KEY", "sk-test")
    fake = _FakeOpenAI()
    with serving(fake.server):
        yield fake


def test_anchors_command_validates_and_dedupes_llm_output(
    fake_openai: _FakeOpenAI, tmp_path: Path
) -> None:
    out = tmp_path / "llm.json.gz"
    args = ["anchors", "--model", "fake-model", "--base-url", fake_openai.url]
    args += ["--api-key-env", "FAKE_KEY", "--out", str(out), "--per-condition", "10"]
    args += ["--only", "fear.anxiety", "--concurrency", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    anchor_set = read_anchor_set(out)
    assert anchor_set.source == "llm:fake-model"
    assert len(anchor_set.anchors) == 27
    all_texts = [t for texts in anchor_set.anchors.values() for t in texts]
    assert len(all_texts) == len(set(all_texts)) == 270
    assert all(anchor_problem(t) is None for t in all_texts)
    assert not any("frustrated" in t or t.startswith("I ") for t in all_texts)
    assert "rejected:" in result.output and "names label" in result.output
    assert len(fake_openai.requests) == 27
    request = fake_openai.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == "fake-model"


def test_anchors_command_fails_when_conditions_fall_short(
    fake_openai: _FakeOpenAI, tmp_path: Path
) -> None:
    out = tmp_path / "llm.json.gz"
    args = ["anchors", "--model", "m", "--base-url", fake_openai.url, "--out", str(out)]
    args += ["--per-condition", "40", "--only", "enjoyment.peace.warm.low", "--max-rounds", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert "below 40 anchors" in result.output
    assert not out.exists()
    assert len(fake_openai.requests) == 6  # 3 conditions x 2 rounds


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "anchors.png"
    result = runner.invoke(app, ["plot", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_explains_missing_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry in sys.modules makes `import matplotlib` raise ImportError.
    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)
    out = tmp_path / "anchors.png"
    result = runner.invoke(app, ["plot", "--out", str(out)])
    assert result.exit_code == 2
    assert "pip install 'tau-emotion[plot]'" in result.output
    assert not out.exists()


def _defaults(function: Any) -> dict[str, Any]:
    import inspect

    return {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.default is not inspect.Parameter.empty
    }


def test_the_commands_default_to_what_the_library_defaults_to() -> None:
    """A command left to its defaults does what a Python caller of the library gets (the
    anchor writer once asked an LLM for 16 anchors a condition from the command line and 10
    from Python)."""
    from tau_emotion.emotions import cli, cli_anchors, generator, llm_anchors
    from tau_emotion.emotions.embedders import default_embedder, make_embedder
    from tau_emotion.emotions.mapper import Mapper

    mapper, embedder = _defaults(Mapper), _defaults(make_embedder)
    for command in (cli.map_command, cli.eval_command):
        given = _defaults(command)
        assert given["k"] == mapper["k"] and given["lexical_weight"] == mapper["lexical_weight"]
        assert given["api_key_env"] == embedder["api_key_env"]
        # the embedder of `Mapper.default`, the shipped classifier's
        assert make_embedder(given["embedder"]).name == default_embedder().name
    assert _defaults(cli.map_command)["seed"] == mapper["seed"]
    assert _defaults(cli.train_command)["api_key_env"] == embedder["api_key_env"]

    anchors = _defaults(cli_anchors.anchors_command)
    writer = _defaults(llm_anchors.generate_with_llm)
    templates = _defaults(generator.generate_anchor_set)
    assert anchors["per_condition"] == writer["per_condition"] == templates["per_condition"]
    assert anchors["seed"] == templates["seed"]
    assert anchors["max_rounds"] == writer["max_rounds"]
    assert anchors["concurrency"] == writer["concurrency"]
    assert anchors["temperature"] == _defaults(llm_anchors.openai_complete)["temperature"]
    assert anchors["api_key_env"] == embedder["api_key_env"]


def test_the_emotions_commands_load_without_numpy_or_openai() -> None:
    """`--help` shows the defaults without importing what computes with them."""
    import subprocess

    code = (
        "import sys; import tau_emotion.emotions.cli; "
        "print([m for m in ('numpy', 'openai', 'matplotlib') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- empty TEXT and texts without a known token (audit defect 4) --------------------------


@pytest.mark.parametrize("text", ["", "   "])
def test_map_refuses_an_empty_text_argument_as_input_does(text: str) -> None:
    result = runner.invoke(app, ["map", text])
    assert result.exit_code == 2
    assert "error: TEXT must be a non-empty string" in result.stderr
    assert result.stdout == ""


def test_map_warns_once_about_texts_without_a_known_token(tmp_path: Path) -> None:
    source = tmp_path / "feelings.jsonl"
    texts = ["Fix it now, please.", "🙏😊", "これは本当にひどいサービスです", "😡", "🙂"]
    source.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts), encoding="utf-8")
    result = runner.invoke(app, ["map", "--input", str(source)])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 5  # still mapped
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "4 text(s)" in warnings[0] and "no signal" in warnings[0]
    assert "'🙏😊'" in warnings[0] and "'🙂'" not in warnings[0]  # the first few only
    plain = runner.invoke(app, ["map", "I've been waiting for weeks and nobody calls me back"])
    assert plain.exit_code == 0 and plain.stderr == ""


# --- NaN and Infinity in an input line (audit defect 9) -----------------------------------


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("NaN", "NaN is not a finite number"),
        ("-Infinity", "-Infinity is not a finite number"),
        ("1e999", "1e999 is not a finite number"),
    ],
)
def test_batch_map_refuses_numbers_json_cannot_hold(
    tmp_path: Path, value: str, problem: str
) -> None:
    source = tmp_path / "feelings.jsonl"
    source.write_text('{"text": "fine"}\n{"text": "nan", "x": ' + value + "}\n", encoding="utf-8")
    out = tmp_path / "conditions.jsonl"
    result = runner.invoke(app, ["map", "--input", str(source), "--output", str(out)])
    assert result.exit_code == 2
    assert f"{source}, line 2: {problem}" in result.stderr
    assert not out.exists()


# --- plot on a file that is not a classifier (audit defect 8) -----------------------------


def test_plot_names_a_classifier_it_cannot_use(tmp_path: Path) -> None:
    not_a_classifier = tmp_path / "msgs.jsonl"
    not_a_classifier.write_text('{"text": "hi"}\n', encoding="utf-8")
    out = tmp_path / "p.png"
    args = ["plot", "--out", str(out), "--classifier", str(not_a_classifier)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert f"error: cannot use classifier {not_a_classifier}: " in result.stderr
    assert not out.exists()


# --- the LLM path: the minimum, the temperature, the endpoint in errors (defects 7, 11) ---


def test_anchors_model_refuses_sets_under_the_minimum_unless_partial(
    fake_openai: _FakeOpenAI, tmp_path: Path
) -> None:
    out = tmp_path / "llm2.json.gz"
    args = ["anchors", "--model", "fake", "--base-url", fake_openai.url, "--out", str(out)]
    args += ["--per-condition", "2", "--only", "anger.annoyance.warm"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "--per-condition 2: an anchor set needs 10" in result.stderr
    assert not out.exists() and not fake_openai.requests  # said before any request
    kept = runner.invoke(app, [*args, "--partial"])
    assert kept.exit_code == 0, kept.output
    assert {len(v) for v in read_anchor_set(out).anchors.values()} == {2}


@pytest.mark.parametrize("temperature", ["-3", "2.5", "nan"])
def test_anchors_model_checks_the_temperature_up_front(
    fake_openai: _FakeOpenAI, tmp_path: Path, temperature: str
) -> None:
    out = tmp_path / "llm.json.gz"
    args = ["anchors", "--model", "fake", "--base-url", fake_openai.url, "--out", str(out)]
    args += ["--only", "anger.annoyance.warm.low", "--temperature", temperature]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "is outside [0, 2]" in result.stderr
    assert not fake_openai.requests and not out.exists()


def test_a_generation_error_names_the_endpoint_and_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tau_emotion.emotions import llm_anchors

    def failing(*args: object, **kwargs: object) -> Any:
        def complete(system: str, user: str) -> str:
            raise ConnectionError("Connection error.")

        return complete

    monkeypatch.setattr(llm_anchors, "openai_complete", failing)
    url = "http://127.0.0.1:9/v1"
    out = tmp_path / "x.json.gz"
    args = ["anchors", "--model", "m", "--out", str(out), "--base-url", url]
    result = runner.invoke(app, [*args, "--only", "anger.annoyance.warm.low.trusting"])
    assert result.exit_code == 1
    assert f"generation failed at {url} (model 'm'): ConnectionError" in result.stderr
    assert not out.exists()
