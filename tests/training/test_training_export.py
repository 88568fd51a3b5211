"""TRL and LLaMA-Factory exports: shapes, reasoning switch, loading and tokenising."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from training_helpers import episode, oracle_config, scored

from tau_emotion.domains import load_domain
from tau_emotion.runner.run import execute_run
from tau_emotion.training.export import (
    DATASET_INFO_FILE,
    SHAREGPT_FILE,
    TRL_FILE,
    export_all,
    export_sharegpt,
    export_trl,
    sharegpt_row,
    sharegpt_valid,
    trl_row,
)
from tau_emotion.training.sources import load_source


def test_trl_row_is_openai_shaped_and_ends_with_the_assistant() -> None:
    row = trl_row(episode(calls=2, reasoning="Check the booking first."))
    messages = row["messages"]
    assert [m["role"] for m in messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]  # the closing user STOP turn carries no loss and is cut
    call = messages[2]["tool_calls"][0]
    assert call["type"] == "function" and call["function"]["name"] == "get_booking"
    assert call["function"]["arguments"] == {"booking_code": "B0", "customer_id": "CU-1"}
    assert messages[2]["content"] == "" and messages[2]["reasoning_content"].startswith("Check")
    assert messages[3] == {
        "role": "tool",
        "tool_call_id": "call_0",
        "name": "get_booking",
        "content": '{"ok": 0}',
    }
    assert json.loads(row["tools"]) == load_domain("movie").tool_schemas()
    dropped = trl_row(episode(reasoning="secret"), keep_reasoning=False)
    assert all("reasoning_content" not in m for m in dropped["messages"])


def test_sharegpt_alternates_and_keeps_reasoning_as_think() -> None:
    row, lost = sharegpt_row(episode(calls=2, reasoning="Think.", text_with_call="One moment."))
    turns = row["conversations"]
    assert [t["from"] for t in turns] == [
        "human",
        "function_call",
        "observation",
        "function_call",
        "observation",
        "gpt",
    ]
    assert sharegpt_valid(turns) and lost == 1  # the text beside the first call
    assert turns[1]["value"].startswith("<think>\nThink.\n</think>\n\n")
    call = json.loads(turns[1]["value"].split("</think>\n\n", 1)[1])
    assert call == {
        "name": "get_booking",
        "arguments": {"booking_code": "B0", "customer_id": "CU-1"},
    }
    assert row["system"] == "You are a customer-service agent."
    assert json.loads(row["tools"])[0].keys() >= {"name", "description", "parameters"}
    plain, _ = sharegpt_row(episode(reasoning="Think."), keep_reasoning=False)
    assert "<think>" not in json.dumps(plain)
    assert not sharegpt_valid([{"from": "gpt", "value": "x"}, {"from": "human", "value": "y"}])


def test_exports_skip_malformed_calls_and_write_dataset_info(tmp_path: Path) -> None:
    episodes = [episode("movie", "a"), episode("school", "b", malformed=True)]
    trl = export_trl(episodes, tmp_path / "trl.jsonl")
    assert trl.rows == 1 and trl.skipped_malformed == 1
    share = export_sharegpt(episodes, tmp_path, "tau_emotion_test")
    assert share.rows == 1 and share.skipped_malformed == 1
    info = json.loads((tmp_path / DATASET_INFO_FILE).read_text())
    entry = info["tau_emotion_test"]
    assert entry["file_name"] == SHAREGPT_FILE and entry["formatting"] == "sharegpt"
    assert entry["columns"] == {"messages": "conversations", "system": "system", "tools": "tools"}
    assert len(json.loads((tmp_path / SHAREGPT_FILE).read_text())) == 1
    export_sharegpt(episodes, tmp_path, "another")  # entries merge, never clobber
    assert set(json.loads((tmp_path / DATASET_INFO_FILE).read_text())) == {
        "tau_emotion_test",
        "another",
    }


def test_row_ids_are_unique_and_duplicate_rows_are_skipped(tmp_path: Path) -> None:
    # D4: two collections hold movie/t1/0 with different conversations, and one twice.
    first = episode("movie", "t1")
    second = episode("movie", "t1", reasoning="Another take.")
    again = first.model_copy(update={"duration_s": 4.0, "seed": 9})  # same conversation
    reports = export_all([first, second, again], tmp_path, ("trl", "sharegpt"), "d")
    assert [(r.rows, r.skipped_duplicate) for r in reports] == [(2, 1), (2, 1)]
    trl_ids = [json.loads(line)["id"] for line in (tmp_path / TRL_FILE).read_text().splitlines()]
    share_ids = [row["id"] for row in json.loads((tmp_path / SHAREGPT_FILE).read_text())]
    assert len(set(trl_ids)) == 2 and trl_ids == share_ids
    assert all(re.fullmatch(r"movie/t1/0/[0-9a-f]{10}", i) for i in trl_ids)
    assert trl_row(first)["id"] == trl_row(again)["id"]  # the id names the content
    # Without reasoning the two takes are the same row: exported once.
    plain = export_trl([first, second], tmp_path / "plain.jsonl", keep_reasoning=False)
    assert plain.rows == 1 and plain.skipped_duplicate == 1


def test_export_leaves_out_rollouts_that_broke_a_policy_rule(tmp_path: Path) -> None:
    # D1: a violated rollout is not a success, whatever the source.
    source = tmp_path / "rows.jsonl"
    rows = [scored(episode("movie", "ok")), scored(episode("movie", "bad"), "movie.confirm")]
    source.write_text("".join(e.model_dump_json() + "\n" for e in rows))
    episodes, _ = load_source(source)
    assert [e.task_id for e in episodes] == ["ok"]


def test_export_of_dot_is_named_after_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # D7: `export .` from inside a mix folder.
    folder = tmp_path / "high"
    folder.mkdir()
    (folder / "episodes.jsonl").write_text(episode().model_dump_json() + "\n")
    monkeypatch.chdir(folder)
    assert load_source(Path("."))[1] == "high"
    assert load_source(Path("episodes.jsonl"))[1] == "episodes"
    (folder / "sub").mkdir()
    monkeypatch.chdir(folder / "sub")
    assert load_source(Path(".."))[1] == "high"


@pytest.fixture(scope="module")
def oracle_rows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TRL rows of real oracle rollouts on the train seed tasks (with reasoning added)."""
    root = tmp_path_factory.mktemp("export")
    execute_run(oracle_config(root / "run"))
    episodes, name = load_source(root / "run")
    assert name == "run" and episodes
    with_reasoning = [
        e.model_copy(
            update={
                "messages": [
                    m.model_copy(update={"reasoning": "Look it up first."})
                    if m.role == "assistant" and m.tool_calls
                    else m
                    for m in e.messages
                ]
            }
        )
        for e in episodes
    ]
    export_trl(with_reasoning, root / "trl.jsonl")
    return root / "trl.jsonl"


def test_trl_export_loads_with_datasets_and_tokenises_with_tools(
    oracle_rows: Path, tmp_path: Path
) -> None:
    datasets = pytest.importorskip("datasets")
    pytest.importorskip("transformers")
    import tiny_lm

    ds = datasets.load_dataset(
        "json", data_files=str(oracle_rows), split="train", cache_dir=str(tmp_path / "cache")
    )
    lines = oracle_rows.read_text().splitlines()
    assert len(ds) == len(lines) and set(ds.column_names) == {"id", "messages", "tools"}
    row = ds[0]
    original = json.loads(lines[0])
    # Arrow must not have mangled the schemas: they come back byte-identical.
    assert json.loads(row["tools"]) == json.loads(original["tools"])
    tokenizer = tiny_lm.build_tokenizer([json.loads(line) for line in lines], tmp_path / "tok")
    tools = json.loads(row["tools"])
    text = tokenizer.apply_chat_template(row["messages"], tools=tools, tokenize=False)
    assert '"name": "get_booking"' in text  # the tool schemas are rendered
    called = next(m for m in row["messages"] if m.get("tool_calls"))["tool_calls"][0]["function"]
    arguments = json.dumps(called["arguments"])
    assert f'<tool_call>\n{{"name": "{called["name"]}", "arguments": {arguments}}}' in text
    assert "<think>\nLook it up first.\n</think>" in text
    encoded = tokenizer.apply_chat_template(
        row["messages"],
        tools=tools,
        tokenize=True,
        return_dict=True,
        return_assistant_tokens_mask=True,
    )
    mask = encoded["assistant_masks"]
    assert 0 < sum(mask) < len(mask) and len(mask) == len(encoded["input_ids"])
