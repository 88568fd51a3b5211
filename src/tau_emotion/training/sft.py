"""Supervised fine-tuning on an exported mix with TRL's SFTTrainer.

Defaults follow common practice for fine-tuning on multi-turn tool-use trajectories:
3 epochs; loss on assistant tokens only (the policy, the customer and the tool results are
context, not targets); a long context (16k tokens: the policy and the tool schemas alone
take several thousand); learning rate 1e-5 for full fine-tuning and 1e-4 with LoRA (rank 16,
alpha 32, all linear layers); cosine schedule with 5% warm-up; gradient checkpointing; bf16
where the GPU supports it. Everything is an option; docs/training.md gives the recipes.

Multi-GPU runs go through ``accelerate launch`` (DDP, DeepSpeed ZeRO-2/3; example configs in
``tau_emotion/training/configs/``); this module reads nothing of the launch, the Trainer does.
torch, transformers, trl, datasets and peft are imported inside the functions.
"""

from __future__ import annotations

import importlib
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.inputs import read_text
from tau_emotion.training.sft_checks import (
    ADAPTER_DIR,
    SUMMARY_FILE,
    SFTError,
    check_attention,
    check_base_model,
    check_chat_template,
    check_data,
    check_lora_target,
    check_out,
    check_report_to,
    clear_out,
    lora_targets,
    rows_hold_reasoning,
)

__all__ = ["ADAPTER_DIR", "SUMMARY_FILE", "SFTError", "SFTOptions", "SFTSummary", "train_sft"]

logger = logging.getLogger(__name__)

# The choices are spelled out: importing transformers' enums (``trainer_utils``) pulls in
# torch, which `tau-emotion --help` must not. tests/training/test_sft_bad_input.py checks
# them against transformers' `SchedulerType` and `SaveStrategy`, so they cannot drift.
LrScheduler = Literal[
    "linear",
    "cosine",
    "cosine_with_restarts",
    "polynomial",
    "constant",
    "constant_with_warmup",
    "inverse_sqrt",
]
"""The transformers schedulers that run with this command's options."""
UNSUPPORTED_SCHEDULERS = {
    "reduce_lr_on_plateau": "needs an eval strategy, and `train sft` does not evaluate",
    "greedy": "needs an eval strategy, and `train sft` does not evaluate",
    "cosine_with_min_lr": "needs min_lr in lr_scheduler_kwargs, which no option sets",
    "cosine_warmup_with_min_lr": "needs min_lr in lr_scheduler_kwargs, which no option sets",
    "warmup_stable_decay": "needs num_decay_steps in lr_scheduler_kwargs, which no option sets",
}
"""transformers' other schedulers and why they are left out (they fail once training starts)."""
SaveStrategy = Literal["no", "steps", "epoch"]
"""When the Trainer saves a checkpoint."""
UNSUPPORTED_SAVE_STRATEGIES = {
    "best": "needs evaluation metrics, and `train sft` does not evaluate"
}


class SFTOptions(BaseModel):
    """Everything that decides an SFT run; stored resolved in ``OUT/sft_summary.json``."""

    model_config = ConfigDict(extra="forbid")

    data: Path = Field(description="TRL rows (trl.jsonl) from `tau-emotion export`.")
    base_model: str = Field(description="Local path or hub id of the model to fine-tune.")
    out: Path = Field(description="Output directory for the model and checkpoints.")
    epochs: float = Field(default=3.0, gt=0, description="Passes over the data.")
    max_steps: int | None = Field(
        default=None, ge=1, description="Stop after this many optimizer steps (smoke tests)."
    )
    learning_rate: float | None = Field(
        default=None, gt=0, description="Unset: 1e-5 for full fine-tuning, 1e-4 with LoRA."
    )
    max_length: int = Field(default=16384, ge=16, description="Tokens per sequence (truncated).")
    per_device_batch_size: int = Field(default=1, ge=1, description="Sequences per device step.")
    gradient_accumulation_steps: int = Field(
        default=8, ge=1, description="Steps per optimizer update (x devices x batch = batch)."
    )
    warmup_ratio: float = Field(default=0.05, ge=0, lt=1, description="Linear warm-up share.")
    lr_scheduler: LrScheduler = Field(default="cosine", description="Learning-rate schedule.")
    weight_decay: float = Field(default=0.0, ge=0, description="AdamW weight decay.")
    assistant_only_loss: bool = Field(default=True, description="Loss on assistant turns only.")
    packing: bool = Field(
        default=False, description="Pack sequences (needs FlashAttention for correctness)."
    )
    lora: bool = Field(default=False, description="Train a LoRA adapter instead of all weights.")
    lora_r: int = Field(default=16, ge=1, description="LoRA rank.")
    lora_alpha: int = Field(default=32, ge=1, description="LoRA alpha.")
    lora_dropout: float = Field(default=0.05, ge=0, lt=1, description="LoRA dropout.")
    lora_target: str = Field(
        default="all-linear",
        description="Modules to adapt: all-linear, names (q_proj,v_proj) or a regex.",
    )
    merge_lora: bool = Field(
        default=True, description="Also save the merged model in OUT (single process only)."
    )
    gradient_checkpointing: bool = Field(default=True, description="Trade compute for memory.")
    bf16: bool | None = Field(default=None, description="Unset: on when the GPU supports it.")
    attn_implementation: str | None = Field(
        default=None, description="e.g. flash_attention_2 or sdpa; unset: the model's default."
    )
    chat_template: Path | None = Field(
        default=None, description="Jinja file to use instead of the tokenizer's chat template."
    )
    logging_steps: int = Field(default=10, ge=1, description="Log every N steps.")
    save_strategy: SaveStrategy = Field(default="epoch", description="When to save a checkpoint.")
    report_to: str = Field(default="none", description="none, wandb, tensorboard...")
    seed: int = Field(default=0, description="Training seed.")
    overwrite: bool = Field(
        default=False,
        description="Replace an earlier SFT run in --out (its model and checkpoints go first).",
    )

    @property
    def resolved_learning_rate(self) -> float:
        if self.learning_rate is not None:
            return self.learning_rate
        return 1e-4 if self.lora else 1e-5


class SFTSummary(BaseModel):
    """``OUT/sft_summary.json``: the options, the data size and how training went."""

    model_config = ConfigDict(extra="forbid")

    options: SFTOptions = Field(
        description="The options, resolved: the learning rate and bf16 actually used."
    )
    rows: int = Field(default=0, description="Rows read from the data.")
    examples: int = Field(description="Training rows after preparation.")
    dropped_too_long: int = Field(
        default=0, description="Rows dropped: no assistant token within --max-length."
    )
    reasoning: bool | None = Field(
        default=None,
        description="Whether the rows kept the agent's reasoning (--reasoning); null: unknown.",
    )
    steps: int = Field(description="Optimizer steps taken.")
    train_loss: float | None = Field(default=None, description="Mean training loss.")
    runtime_s: float = Field(description="Wall-clock seconds of training.")
    model_dir: str | None = Field(
        description="Where the trained (merged) model is; null when only an adapter was saved."
    )
    adapter_dir: str | None = Field(default=None, description="The LoRA adapter, if any.")

    @property
    def saved_to(self) -> str:
        """What the run left to serve: the model, or else the adapter."""
        if self.model_dir is not None:
            return f"model in {self.model_dir}"
        return f"adapter in {self.adapter_dir} (not merged)"


def optional_module(name: str, extra: str = "train") -> Any:
    """Import an optional heavy module, untyped on purpose.

    Loading it as ``Any`` keeps the type check of this package independent of which extras
    happen to be installed where mypy runs; a missing extra becomes a clear `SFTError`.
    """
    try:
        return importlib.import_module(name)
    except ImportError:
        raise SFTError(
            f"training needs {name.split('.')[0]}: pip install 'tau-emotion[{extra}]' "
            "(see docs/training.md)"
        ) from None


def check_inputs(options: SFTOptions) -> int:
    """Everything about the inputs that can be checked before torch is imported; the
    number of rows of the data."""
    check_out(options.out, options.overwrite)
    rows = check_data(options.data)
    check_base_model(options.base_model)
    if options.chat_template is not None:
        read_text(options.chat_template, "--chat-template")
    return rows


def load_tokenizer(auto_tokenizer: Any, name: str) -> Any:
    """The base model's tokenizer; a load failure becomes an `SFTError` naming --base-model."""
    try:
        return auto_tokenizer.from_pretrained(name)
    except Exception as exc:  # whatever the hub or the tokenizer backend raise
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SFTError(f"--base-model {name}: cannot load its tokenizer: {reason}") from None


def build_trainer(options: SFTOptions) -> Any:
    """An SFTTrainer ready to train; its ``train_dataset`` holds the tokenised labels."""
    check_inputs(options)  # before the heavy imports: bad input fails in a moment
    return _build_trainer(options)


def _build_trainer(options: SFTOptions) -> Any:
    """`build_trainer` on inputs `check_inputs` passed. Every option value transformers,
    peft or TRL would reject is checked before the model is loaded."""
    torch = optional_module("torch")
    load_dataset = optional_module("datasets").load_dataset
    auto_tokenizer = optional_module("transformers").AutoTokenizer
    sft_config = optional_module("trl.trainer.sft_config").SFTConfig
    sft_trainer = optional_module("trl.trainer.sft_trainer").SFTTrainer

    cuda = torch.cuda.is_available()
    check_attention(options.attn_implementation, cuda)
    report_to = check_report_to(options.report_to)
    tokenizer = load_tokenizer(auto_tokenizer, options.base_model)
    if options.chat_template is not None:
        tokenizer.chat_template = options.chat_template.read_text(encoding="utf-8")
    check_chat_template(tokenizer, options.base_model, options.assistant_only_loss)
    dataset = load_dataset("json", data_files=str(options.data), split="train")
    bf16 = options.bf16 if options.bf16 is not None else cuda and torch.cuda.is_bf16_supported()
    model_init: dict[str, Any] = {"dtype": torch.bfloat16 if bf16 else torch.float32}
    if options.attn_implementation is not None:
        model_init["attn_implementation"] = options.attn_implementation
    config = sft_config(
        output_dir=str(options.out),
        num_train_epochs=options.epochs,
        max_steps=options.max_steps or -1,
        learning_rate=options.resolved_learning_rate,
        max_length=options.max_length,
        per_device_train_batch_size=options.per_device_batch_size,
        gradient_accumulation_steps=options.gradient_accumulation_steps,
        warmup_steps=options.warmup_ratio,  # a float below 1 is a ratio of total steps
        lr_scheduler_type=options.lr_scheduler,
        weight_decay=options.weight_decay,
        assistant_only_loss=options.assistant_only_loss,
        packing=options.packing,
        # transformers 5.23 renamed the argument; the old name warns and goes away in v6.
        activation_checkpointing=options.gradient_checkpointing,
        bf16=bf16,
        use_cpu=not cuda,
        model_init_kwargs=model_init,
        logging_steps=options.logging_steps,
        save_strategy=options.save_strategy,
        report_to=report_to or "none",
        seed=options.seed,
    )
    peft_config = None
    if options.lora:
        peft_config = optional_module("peft").LoraConfig(
            r=options.lora_r,
            lora_alpha=options.lora_alpha,
            lora_dropout=options.lora_dropout,
            target_modules=lora_targets(options.lora_target),
            task_type="CAUSAL_LM",
        )
        check_lora_target(options.base_model, options.lora_target, peft_config)
    return sft_trainer(
        model=options.base_model,
        args=config,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=peft_config,
    )


def _longest_row(trainer: Any, data: Path) -> int:
    """The token length of the longest row of `data`, as the trainer tokenises it (with
    TRL's training template where it swapped one in); only for the error line."""
    tokenizer = trainer.processing_class
    template = getattr(trainer, "chat_template", None)
    longest = 0
    for line in read_text(data, "training data").split("\n"):
        if not line.strip():
            continue
        row = json.loads(line)
        ids = tokenizer.apply_chat_template(
            row["messages"],
            tools=json.loads(row["tools"]),
            chat_template=template,
            tokenize=True,
            return_dict=False,
        )
        longest = max(longest, len(ids))
    return longest


def _too_long(trainer: Any, options: SFTOptions, rows: int, note: Callable[[str], None]) -> int:
    """How many rows TRL dropped because truncation to --max-length left them no assistant
    token; `SFTError` when that is every row (the Trainer would fail on an empty dataset).
    With packing nothing is truncated (and rows are packed), so nothing is compared."""
    if options.packing:
        return 0
    dropped = rows - len(trainer.train_dataset)
    if dropped >= rows:
        longest = _longest_row(trainer, options.data)
        raise SFTError(
            f"--max-length {options.max_length}: none of the {rows} rows of {options.data} "
            f"keeps an assistant token within it (the longest row is {longest} tokens); "
            "raise --max-length"
        )
    if dropped > 0 and trainer.accelerator.is_main_process:
        note(
            f"warning: {dropped} of the {rows} rows of {options.data} have no assistant token "
            f"within --max-length {options.max_length} and are left out of training"
        )
    return max(dropped, 0)


def train_sft(
    options: SFTOptions,
    reasoning: bool | None = None,
    note: Callable[[str], None] = logger.warning,
) -> SFTSummary:
    """Train, save the model (and the LoRA adapter) in ``options.out``, write the summary.

    `reasoning` is the --reasoning setting the data was exported with, for the summary;
    unset, the rows say (kept reasoning shows, dropped does not). `note` gets the warnings
    meant for the user (rows dropped as too long), before training starts.
    """
    rows = check_inputs(options)  # before the heavy imports: bad input fails in a moment
    if reasoning is None and rows_hold_reasoning(options.data):
        reasoning = True
    if options.overwrite:
        clear_out(options.out)  # the earlier run's checkpoints would sit beside this run's
    trainer = _build_trainer(options)
    dropped = _too_long(trainer, options, rows, note)
    started = time.perf_counter()
    result = trainer.train()
    runtime = time.perf_counter() - started
    out = options.out
    adapter_dir: Path | None = None
    model_dir: Path | None = out
    if options.lora:
        adapter_dir = out / ADAPTER_DIR
        trainer.save_model(str(adapter_dir))
        # Merging needs the whole model in one process; under DeepSpeed / several processes
        # only the adapter is saved (vLLM serves it with --enable-lora, see docs/training.md).
        if options.merge_lora and trainer.accelerator.num_processes == 1:
            merged = trainer.model.merge_and_unload()
            merged.save_pretrained(str(out))
            trainer.processing_class.save_pretrained(str(out))
        else:
            model_dir = None  # nothing but the adapter to serve
    else:
        trainer.save_model(str(out))
    resolved = options.model_copy(
        update={"learning_rate": options.resolved_learning_rate, "bf16": bool(trainer.args.bf16)}
    )
    summary = SFTSummary(
        options=resolved,
        rows=rows,
        examples=len(trainer.train_dataset),
        dropped_too_long=dropped,
        reasoning=reasoning,
        steps=int(trainer.state.global_step),
        train_loss=float(result.training_loss) if result.training_loss is not None else None,
        runtime_s=runtime,
        model_dir=str(model_dir) if model_dir is not None else None,
        adapter_dir=str(adapter_dir) if adapter_dir is not None else None,
    )
    if trainer.accelerator.is_main_process:
        (out / SUMMARY_FILE).write_text(
            json.dumps(summary.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
        )
    return summary
