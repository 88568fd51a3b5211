"""What lands on disk: never a crash on unencodable text, never a key, never half a file."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tau_emotion.data import Episode, EpisodeError, Message, RunManifest, TerminationReason
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError
from tau_emotion.redact import redact, register_key_variables, registered_variables
from tau_emotion.runner.results import ResultsFileError, ResultsWriter, load_episodes
from tau_emotion.storage import (
    DamagedFileError,
    encodable,
    model_json,
    read_model,
    write_atomic,
)

SECRET = "sk-storage-test-0f9e8d7c6b5a"


def _episode(text: str, error: str = "") -> Episode:
    return Episode(
        task_id="t1",
        domain="airline",
        trial=0,
        seed=1,
        messages=[Message(role="system", content="policy"), Message(role="user", content=text)],
        termination=TerminationReason.INFRA_ERROR if error else TerminationReason.MAX_STEPS,
        reward=0.0,
        errors=[EpisodeError(kind="infra", message=error)] if error else [],
    )


def test_encodable_replaces_only_lone_surrogates() -> None:
    assert encodable("plain") == "plain"
    assert encodable("caf\u00e9 \U0001f600") == "caf\u00e9 \U0001f600"
    assert encodable("a\ud800b\udfffc") == "a\ufffdb\ufffdc"


def test_a_surrogate_in_an_episode_is_written_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    writer = ResultsWriter(path, fsync=False)
    writer.append(_episode("I waited \ud83d for hours"))  # half an emoji from a broken server
    writer.append(_episode("fine"))
    writer.close()
    episodes = list(load_episodes(path).values())  # what --resume reads
    assert len(episodes) == 1  # same key: the later record supersedes
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["messages"][1]["content"] == "I waited \ufffd for hours"


def test_model_json_matches_pydantic_byte_for_byte_when_nothing_needs_fixing() -> None:
    episode = _episode("caf\u00e9, 1e-7 and 1e+16 stay as pydantic writes them")
    assert model_json(episode) == episode.model_dump_json()
    assert model_json(episode, indent=2) == episode.model_dump_json(indent=2)


def test_keys_are_redacted_in_every_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_AGENT_KEY", SECRET)
    monkeypatch.setenv("SHORT_API_KEY", "abc")  # too short to redact safely
    register_key_variables(["MY_AGENT_KEY"])
    assert "MY_AGENT_KEY" in registered_variables()
    assert (
        redact(f"401: you sent Bearer {SECRET}") == "401: you sent Bearer [MY_AGENT_KEY redacted]"
    )
    assert redact("abc stays") == "abc stays"
    line = model_json(_episode("hi", error=f"echo: Authorization: Bearer {SECRET}"))
    assert SECRET not in line and "[MY_AGENT_KEY redacted]" in line


def test_write_atomic_replaces_whole_files_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "manifest.json"
    write_atomic(path, "first")
    write_atomic(path, "second \ud800")
    assert path.read_text(encoding="utf-8") == "second \ufffd"
    assert os.listdir(path.parent) == ["manifest.json"]
    with pytest.raises(IsADirectoryError, match="is a folder"):
        write_atomic(tmp_path, "x")


def test_write_atomic_gives_the_mode_a_plain_write_would(tmp_path: Path) -> None:
    """The temp file is owner-only; the file it becomes is not (a report others could not
    read was a surprise), and a file's own mode survives a rewrite."""
    old = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.txt"
        write_atomic(fresh, "a")
        plain = tmp_path / "plain.txt"
        plain.write_text("a")
        assert fresh.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777 == 0o644
        fresh.chmod(0o640)
        write_atomic(fresh, "b")
        assert fresh.stat().st_mode & 0o777 == 0o640 and fresh.read_text() == "b"
    finally:
        os.umask(old)


def test_write_atomic_names_a_file_in_the_way_of_its_folder(tmp_path: Path) -> None:
    (tmp_path / "out.json").write_text("{}")
    with pytest.raises(NotADirectoryError) as caught:
        write_atomic(tmp_path / "out.json" / "sub" / "r.html", "x")
    assert caught.value.filename == str(tmp_path / "out.json")
    assert caught.value.strerror == "is a file, not a folder"
    assert (tmp_path / "out.json").read_text() == "{}"


def test_a_damaged_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    manifest = RunManifest(config={}, code_version="v", started_at="now")
    write_atomic(path, model_json(manifest, indent=2))
    assert read_model(path, RunManifest) == manifest
    path.write_text(path.read_text()[:20])
    with pytest.raises(DamagedFileError, match=re.escape(f"{path} is damaged: ")):
        read_model(path, RunManifest)
    with pytest.raises(DamagedFileError, match="is a folder"):
        read_model(tmp_path, RunManifest)


def test_a_garbage_line_before_the_last_is_named(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text("garbage\n" + _episode("x").model_dump_json() + "\n")
    with pytest.raises(ResultsFileError, match=r"results\.jsonl is damaged: line 1"):
        load_episodes(path)


def test_the_calculator_refuses_a_surrogate_instead_of_crashing() -> None:
    env = Environment("airline", "main")
    with pytest.raises(ToolError, match="not valid Unicode"):
        env.call("calculate", {"expression": "1 + \ud800"})
    assert env.call("calculate", {"expression": "2 * 3.5"}) == "7"
