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
