"""What ``train sft`` checks before it trains: the data, --base-model, --out and the options
whose bad values would otherwise fail deep inside transformers, peft or TRL.

Apart from `sft` so that module stays about the run itself. The checks of `check_inputs`
import nothing heavy (they run before torch is imported, so bad input fails in a moment);
the `check_*` functions that take a tokenizer or need torch run after the imports but
before the model is loaded or training starts.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path
from typing import Any

from tau_emotion.errors import TauEmotionError
from tau_emotion.inputs import InputError, read_text
from tau_emotion.runner.results import RESULTS_FILE
from tau_emotion.training.sources import (
    manifest_split,  # the split check of `mix` and `export`, reused, not copied
    refuse_test_tasks,
    require_train_run,
)

SUMMARY_FILE = "sft_summary.json"
ADAPTER_DIR = "adapter"

TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer.model",
    "tokenizer_config.json",
    "vocab.json",
    "vocab.txt",
)
"""A local model folder needs one of these (beside config.json) to load a tokenizer from."""

ROW_ID = re.compile(r"^(?P<domain>[^/]+)/(?P<task>.+)/(?P<trial>\d+)/(?P<digest>[0-9a-f]{10})$")
"""The id `tau-emotion export` gives a TRL row: ``<domain>/<task>/<trial>/<digest>``."""

ATTENTION = ("eager", "sdpa", "flex_attention", "flash_attention_2", "flash_attention_3")
"""--attn-implementation values: transformers' attention functions that need no hub kernel
(tests/training check them against transformers' own registry)."""
FLASH_PACKAGES = {"flash_attention_2": "flash_attn", "flash_attention_3": "flash_attn_interface"}
"""The package each FlashAttention version needs; without it transformers would fetch a
kernel from the hub instead, which a training node may not reach."""


class SFTError(TauEmotionError):
    """Training could not start: missing extras, data or model."""


# --- the data -------------------------------------------------------------------------------


def _refuse_rollout_records(path: Path, rows: list[dict[str, Any]]) -> None:
    """Rollout records (a run's results.jsonl, a mix's episodes.jsonl) are not TRL rows: they
    hold every outcome, not only successes, and tool calls in another shape. Refused, with
    the test split named first: that is the mistake that matters most."""
    if path.name == RESULTS_FILE:
        split = manifest_split(path.parent)
        if split is not None:
            require_train_run(path.parent, split, "--mix")
    refuse_test_tasks([(str(r["domain"]), str(r["task_id"])) for r in rows], path)
    raise InputError(
        f"--mix {path} holds rollout records, not TRL rows from `tau-emotion export`: give "
        "the mix folder, or export it first (tau-emotion export FOLDER --format trl)"
    )


def check_data(path: Path) -> int:
    """The number of rows of a TRL file from `tau-emotion export`, or `InputError` naming the
    file (and the line); `SplitLeakError` when it holds rollouts of the benchmark's test
    split.

    Every non-blank line must be a JSON object with a ``messages`` list (datasets would
    otherwise fail deep inside its JSON reader), and the export's ``id`` and ``tools``:
    any other JSONL with messages (a run's results.jsonl) would train, or fail in the chat
    template, on data no export vetted.
    """
    what = "training data"
    if not path.exists():
        raise InputError(f"{what} {path} does not exist; run `tau-emotion export` first")
    rows: list[dict[str, Any]] = []
    # Split on newlines only: str.splitlines also splits at U+2028, which a row may hold.
    for number, line in enumerate(read_text(path, what).split("\n"), 1):
        if not line.strip():
            continue  # datasets skips blank lines too
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{what} {path} line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise InputError(f"{what} {path} line {number}: not a JSON object")
        if not isinstance(row.get("messages"), list) or not row["messages"]:
            raise InputError(
                f"{what} {path} line {number}: no `messages` list; is it a TRL file "
                "from `tau-emotion export`?"
            )
        rows.append(row)
    if not rows:
        raise InputError(f"{what} {path} holds no rows; is the mix empty?")
    if "task_id" in rows[0] and "domain" in rows[0]:
        _refuse_rollout_records(path, rows)
    ids = []
    for number, row in enumerate(rows, 1):
        match = ROW_ID.match(str(row.get("id", "")))
        if match is None or not isinstance(row.get("tools"), str):
            raise InputError(
                f"{what} {path} row {number}: not a row of `tau-emotion export` (an `id` "
                "<domain>/<task>/<trial>/<digest> and a `tools` string); export the mix"
            )
        ids.append(match)
    # The row ids name the tasks, so a TRL file carries its split as a mix folder does.
    refuse_test_tasks([(m["domain"], m["task"]) for m in ids], path)
    return len(rows)


def rows_hold_reasoning(path: Path) -> bool:
    """Whether any assistant message of the TRL file keeps the agent's reasoning."""
    for line in read_text(path, "training data").split("\n"):
        if line.strip() and any(
            m.get("reasoning_content") for m in json.loads(line)["messages"] if isinstance(m, dict)
        ):
            return True
    return False


# --- --base-model -----------------------------------------------------------------------------


def is_local_model(name: str) -> bool:
    """Whether --base-model names a folder rather than a hub id (``org/name``): an existing
    path, one spelled as a path, or one under an existing folder (``models/nope`` when
    ``models/`` exists: a typo there must not become ~50 s of hub retries)."""
    path = Path(name).expanduser()
    return (
        path.exists()
        or name.startswith(("/", ".", "~"))
        or "\\" in name
        or name.count("/") > 1
        or (path.parent != Path(".") and path.parent.is_dir())
    )


def check_base_model(name: str) -> None:
    """A local --base-model must be a folder with config.json and a tokenizer; else
    `InputError`. A hub id is left to the loader (`load_tokenizer` names it on failure)."""
    if not is_local_model(name):
        return
    folder = Path(name).expanduser()
    if not folder.exists():
        raise InputError(f"--base-model {name}: no such folder")
    if not folder.is_dir():
        raise InputError(f"--base-model {name} is a file, not a model folder")
    if not (folder / "config.json").is_file():
        raise InputError(f"--base-model {name} holds no model: config.json is missing")
    if not any((folder / f).is_file() for f in TOKENIZER_FILES):
        raise InputError(
            f"--base-model {name} holds no tokenizer: none of {', '.join(TOKENIZER_FILES)}"
        )


# --- --out ------------------------------------------------------------------------------------

RUN_FILES = (
    SUMMARY_FILE,
    "config.json",
    "generation_config.json",
    "training_args.bin",
    "README.md",
    "chat_template.jinja",
    "special_tokens_map.json",
    "added_tokens.json",
    "merges.txt",
    *TOKENIZER_FILES,
)
"""Files an SFT run writes into --out (beside weights, checkpoints and the adapter)."""


def _run_artifacts(out: Path) -> list[Path]:
    """What an earlier SFT run left in `out`: weights, checkpoints, the adapter, its files."""
    found = [out / name for name in RUN_FILES if (out / name).is_file()]
    found += sorted(out.glob("checkpoint-*")) + sorted(out.glob("*.safetensors*"))
    found += sorted(out.glob("pytorch_model*.bin"))
    if (out / ADAPTER_DIR).exists():
        found.append(out / ADAPTER_DIR)
    return found


def check_out(out: Path, overwrite: bool) -> None:
    """--out must be a folder (or not exist yet) that holds no earlier SFT run, unless
    `overwrite`: a second run there would mix its checkpoints with the first's, and with
    --no-merge-lora leave the first run's model beside the new adapter."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is a file, not a folder")
    if not overwrite and out.is_dir() and _run_artifacts(out):
        finished = "a finished SFT run" if (out / SUMMARY_FILE).exists() else "an SFT run"
        raise InputError(
            f"--out {out} already holds {finished} ({SUMMARY_FILE}, checkpoints or a model); "
            "choose another --out, or pass --overwrite to replace it"
        )


def clear_out(out: Path) -> None:
    """Remove an earlier run's artifacts from `out` (--overwrite); other files stay. Missing
    files are no error: under accelerate every process clears the same folder."""
    for path in _run_artifacts(out):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


# --- options whose values only transformers, peft or TRL would judge ---------------------------


def check_attention(name: str | None, cuda: bool) -> None:
    """--attn-implementation must be one transformers runs without fetching a kernel."""
    if name is None:
        return
    if name not in ATTENTION:
        raise SFTError(f"--attn-implementation {name}: not one of {', '.join(ATTENTION)}")
    package = FLASH_PACKAGES.get(name)
    if package is not None and (not cuda or importlib.util.find_spec(package) is None):
        raise SFTError(
            f"--attn-implementation {name} needs {package} installed and a CUDA GPU; "
            "use sdpa (or leave the option out)"
        )


def check_report_to(value: str) -> list[str]:
    """--report-to as the list transformers takes: every name known and its package
    installed (transformers would fail only once the Trainer is built)."""
    # Untyped on purpose, as sft.optional_module: mypy must not depend on the extras.
    integration_utils: Any = importlib.import_module("transformers.integrations.integration_utils")

    names = [n.strip() for n in value.split(",") if n.strip()]
    if names in ([], ["none"]):
        return []
    if names == ["all"]:
        return ["all"]
    known = set(integration_utils.INTEGRATION_TO_CALLBACK)
    available = set(integration_utils.get_available_reporting_integrations())
    for name in names:
        if name not in known:
            raise SFTError(f"--report-to {name}: not one of none, all, {', '.join(sorted(known))}")
        if name not in available:
            raise SFTError(f"--report-to {name} needs {name} installed (pip install {name})")
    return names


def lora_targets(value: str) -> str | list[str]:
    """--lora-target as peft's target_modules: ``all-linear``, module names separated by
    commas (matched as name suffixes), or a regular expression on full module names."""
    if value == "all-linear" or not re.fullmatch(r"[\w.,\s-]+", value):
        return value
    return [n.strip() for n in value.split(",") if n.strip()]


def check_lora_target(base_model: str, option: str, lora_config: Any) -> None:
    """--lora-target must match a module of --base-model; checked on an empty (meta-device)
    copy of the model, so no weight is loaded for it."""
    if lora_config.target_modules == "all-linear":
        return
    torch = importlib.import_module("torch")
    transformers = importlib.import_module("transformers")
    tuners_utils = importlib.import_module("peft.tuners.tuners_utils")
    config = transformers.AutoConfig.from_pretrained(base_model)
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(config)
    if not any(
        tuners_utils.check_target_module_exists(lora_config, name)
        for name, _ in model.named_modules()
    ):
        raise SFTError(
            f"--lora-target {option} matches no module of --base-model {base_model} "
            "(give all-linear, names like q_proj,v_proj, or a regex on full module names)"
        )


def check_chat_template(tokenizer: Any, base_model: str, assistant_only_loss: bool) -> None:
    """The chat template must exist, and for the assistant-only loss carry ``{% generation %}``
    markers or be one TRL knows how to patch; TRL would fail inside the trainer otherwise."""
    if not tokenizer.chat_template:
        raise SFTError(
            f"--base-model {base_model} has no chat template (a base model?): give one with "
            "--chat-template FILE.jinja"
        )
    if not assistant_only_loss:
        return
    utils = importlib.import_module("trl.chat_template_utils")
    if utils.has_generation_markers(tokenizer.chat_template):
        return
    try:
        utils.get_training_chat_template(tokenizer)
    except ValueError:
        raise SFTError(
            f"--base-model {base_model}: its chat template has no {{% generation %}} markers "
            "and is not a family TRL can patch, so the assistant-only loss cannot find the "
            "assistant turns: give a template with them (--chat-template FILE.jinja) or "
            "train on whole sequences (--no-assistant-only-loss)"
        ) from None
