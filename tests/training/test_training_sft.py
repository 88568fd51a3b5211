"""A few SFT steps on a tiny random model on CPU: assistant-only labels, a loadable result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from training_helpers import oracle_config

from tau_emotion.runner.run import execute_run
from tau_emotion.training.export import export_trl
from tau_emotion.training.sft import ADAPTER_DIR, SUMMARY_FILE, SFTOptions, SFTSummary
from tau_emotion.training.sources import load_source

pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("datasets")

import tiny_lm

# The trainer's own arguments must use today's names: transformers 6 drops the deprecated ones.
pytestmark = pytest.mark.filterwarnings(
    "error:`gradient_checkpointing` is deprecated:FutureWarning"
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[dict[str, Any]]]:
    """(trl.jsonl, model dir, rows): oracle rollouts with reasoning, a tiny model to train."""
    root = tmp_path_factory.mktemp("sft")
    execute_run(oracle_config(root / "run"))
    episodes, _ = load_source(root / "run")
    episodes = [
        e.model_copy(
            update={
                "messages": [
                    m.model_copy(update={"reasoning": "I should check the record."})
                    if m.role == "assistant" and m.tool_calls
                    else m
                    for m in e.messages
                ]
            }
        )
        for e in episodes
    ]
    export_trl(episodes, root / "full.jsonl")
    rows = [tiny_lm.shrink(json.loads(line)) for line in (root / "full.jsonl").open()]
    data = root / "trl.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tokenizer = tiny_lm.build_tokenizer(rows, root / "model")
    tiny_lm.build_model(tokenizer, root / "model")
    return data, root / "model", rows


def options(data: Path, model: Path, out: Path, **kw: Any) -> SFTOptions:
    return SFTOptions(
        data=data,
        base_model=str(model),
        out=out,
        max_steps=2,
        max_length=4096,
        per_device_batch_size=2,
        gradient_accumulation_steps=1,
        gradient_checkpointing=False,
        logging_steps=1,
        save_strategy="no",
        **kw,
    )


def test_labels_cover_exactly_the_assistant_turns(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    from tau_emotion.training.sft import build_trainer

    data, model, rows = tiny
    trainer = build_trainer(options(data, model, tmp_path / "out"))
    tokenizer = trainer.processing_class
    dataset = trainer.train_dataset
    assert len(dataset) == len(rows)
    for example, row in zip(dataset, rows, strict=True):
        ids, labels = example["input_ids"], example["labels"]
        assert len(ids) < 4096  # nothing truncated, so the whole conversation is compared
        trained = [t for t, label in zip(ids, labels, strict=True) if label != -100]
        assert all(label in (-100, t) for t, label in zip(ids, labels, strict=True))
        expected = "".join(
            tiny_lm.assistant_block(m) for m in row["messages"] if m["role"] == "assistant"
        )
        # Exactly the assistant output (reasoning, text, tool calls, end of turn) is trained;
        # the system prompt, tool schemas, customer turns and tool results are not.
        assert trained == tokenizer(expected, add_special_tokens=False)["input_ids"]
        assert len(trained) < len(ids) / 2
    # The collated batches agree: padding and non-assistant tokens carry no loss.
    total = sum(sum(label != -100 for label in ex["labels"]) for ex in dataset)
    seen = 0
    for batch in trainer.get_train_dataloader():
        labels, attention = batch["labels"], batch["attention_mask"]
        assert bool((labels[attention == 0] == -100).all())
        seen += int((labels != -100).sum())
    assert seen == total


def test_a_few_sft_steps_train_and_the_saved_model_loads(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from tau_emotion.training.sft import train_sft

    data, model, _ = tiny
    out = tmp_path / "full"
    summary = train_sft(options(data, model, out))
    assert summary.steps == 2 and summary.train_loss is not None and summary.train_loss > 0
    assert SFTSummary.model_validate_json((out / SUMMARY_FILE).read_text()) == summary
    loaded = AutoModelForCausalLM.from_pretrained(out)
    tokenizer = AutoTokenizer.from_pretrained(out)
    assert loaded.config.vocab_size == len(tokenizer)
    assert "{% generation %}" in tokenizer.chat_template  # saved with the trained model


def test_lora_trains_an_adapter_and_saves_a_merged_model(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    pytest.importorskip("peft")
    from peft import PeftConfig
    from transformers import AutoModelForCausalLM

    from tau_emotion.training.sft import train_sft

    data, model, _ = tiny
    out = tmp_path / "lora"
    summary = train_sft(options(data, model, out, lora=True, lora_r=4, lora_alpha=8))
    assert summary.adapter_dir == str(out / ADAPTER_DIR)
    assert summary.options.resolved_learning_rate == 1e-4
    assert PeftConfig.from_pretrained(out / ADAPTER_DIR).r == 4
    merged = AutoModelForCausalLM.from_pretrained(out)
    assert not any("lora" in name for name, _ in merged.named_parameters())


def test_the_summary_holds_the_resolved_settings(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    from tau_emotion.training.sft import train_sft

    data, model, rows = tiny
    summary = train_sft(options(data, model, tmp_path / "full"))
    stored = json.loads((tmp_path / "full" / SUMMARY_FILE).read_text())
    # Once null: the unresolved options were stored, not what the run used.
    assert stored["options"]["learning_rate"] == 1e-5 and stored["options"]["bf16"] is False
    assert stored["reasoning"] is True and stored["rows"] == len(rows) == summary.examples


def test_lora_without_merge_names_the_adapter_not_an_empty_model_dir(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    pytest.importorskip("peft")
    from tau_emotion.training.sft import train_sft

    data, model, _ = tiny
    out = tmp_path / "lora"
    summary = train_sft(options(data, model, out, lora=True, lora_r=4, merge_lora=False))
    assert not (out / "config.json").exists()
    assert summary.model_dir is None and summary.adapter_dir == str(out / ADAPTER_DIR)
    assert summary.saved_to == f"adapter in {out / ADAPTER_DIR} (not merged)"


def test_overwrite_clears_the_earlier_run_first(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    from tau_emotion.inputs import InputError
    from tau_emotion.training.sft import train_sft

    data, model, _ = tiny
    out = tmp_path / "out"
    (out / "checkpoint-9").mkdir(parents=True)
    (out / SUMMARY_FILE).write_text("{}")
    with pytest.raises(InputError, match="--overwrite"):
        train_sft(options(data, model, out))
    summary = train_sft(options(data, model, out, overwrite=True))
    assert not (out / "checkpoint-9").exists() and summary.steps == 2


def model_with_template(model: Path, folder: Path, template: str | None) -> Path:
    import shutil

    from transformers import AutoTokenizer

    shutil.copytree(model, folder)
    tokenizer = AutoTokenizer.from_pretrained(model)
    tokenizer.chat_template = template
    (folder / "chat_template.jinja").unlink()
    tokenizer.save_pretrained(folder)
    return folder


@pytest.mark.parametrize(
    ("template", "why"),
    [
        (
            tiny_lm.CHAT_TEMPLATE.replace("{% generation %}", "").replace(
                "{% endgeneration %}", ""
            ),
            "no {% generation %} markers",
        ),
        (None, "has no chat template"),
    ],
)
def test_a_template_the_loss_cannot_use_is_one_line_before_training(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path, template: str | None, why: str
) -> None:
    from training_helpers import refused
    from typer.testing import CliRunner

    from tau_emotion.cli.main import app

    data, model, _ = tiny
    plain = model_with_template(model, tmp_path / "plain", template)
    out = tmp_path / "out"
    args = ["train", "sft", "--mix", str(data), "--base-model", str(plain), "--out", str(out)]
    refused(CliRunner().invoke(app, args), f"--base-model {plain}", why, "--chat-template")
    assert not out.exists()


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--attn-implementation", "nonsense"], "--attn-implementation nonsense: not one of"),
        (["--attn-implementation", "flash_attention_2"], "needs flash_attn installed"),
        (["--lora", "--lora-target", "nonsense"], "--lora-target nonsense matches no module"),
        (["--report-to", "nonsense"], "--report-to nonsense: not one of"),
    ],
)
def test_a_bad_option_value_is_one_line_not_a_traceback(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path, extra: list[str], named: str
) -> None:
    import torch
    from training_helpers import refused
    from typer.testing import CliRunner

    from tau_emotion.cli.main import app

    if "flash_attention_2" in extra and torch.cuda.is_available():
        pytest.skip("a CUDA machine may have flash-attn")
    data, model, _ = tiny
    out = tmp_path / "out"
    args = ["train", "sft", "--mix", str(data), "--base-model", str(model), "--out", str(out)]
    refused(CliRunner().invoke(app, [*args, "--max-steps", "1", *extra]), named)
    assert not out.exists()


def test_a_lora_target_by_module_name_trains(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    pytest.importorskip("peft")
    from tau_emotion.training.sft import train_sft

    data, model, _ = tiny
    opts = options(data, model, tmp_path / "o", lora=True, lora_target="q_proj,v_proj")
    assert train_sft(opts.model_copy(update={"max_steps": 1})).steps == 1


def test_rows_too_long_for_max_length_are_counted_or_refused(
    tiny: tuple[Path, Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    from tau_emotion.training.sft import SFTError, train_sft

    data, model, rows = tiny
    with pytest.raises(SFTError, match=r"--max-length 16: none of the \d+ rows .* longest row"):
        train_sft(options(data, model, tmp_path / "none").model_copy(update={"max_length": 16}))
    long = dict(rows[0])
    long["messages"] = [{**rows[0]["messages"][0], "content": "word " * 5000}]
    long["messages"] += rows[0]["messages"][1:]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(json.dumps(long) + "\n" + json.dumps(rows[1]) + "\n")
    notes: list[str] = []
    summary = train_sft(options(mixed, model, tmp_path / "some"), note=notes.append)
    assert summary.rows == 2 and summary.examples == 1 and summary.dropped_too_long == 1
    assert notes and "1 of the 2 rows" in notes[0]
