"""The Python API: run the benchmark from a script or a notebook and get the results as data.

    import tau_emotion
    results = tau_emotion.evaluate(domains="airline", num_tasks=5, agent="oracle")
    results.metrics().overall_tasks.avg.value
    results.to_pandas().groupby("family").success.mean()

`evaluate` takes a `RunConfig` or its fields as keywords (a model may be given as its name),
with the same defaults as ``tau-emotion run``. It works inside a running event loop (Jupyter):
the run then gets its own loop in a helper thread. `evaluate_async` is the awaitable twin and
never blocks the caller's loop. `Results.load` opens a finished run directory.

Bad input is a `TauEmotionError` whose message names the keyword argument (``out``, not the
command line's ``--out``): settings the config refuses are a `ConfigError` (a `ValueError`
too), not pydantic's `ValidationError`, so one ``except tau_emotion.TauEmotionError`` is
enough.
"""

from __future__ import annotations

import asyncio
import importlib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tau_emotion.analysis.runs import read_progress, with_unfinished_warning
from tau_emotion.data import Episode
from tau_emotion.emotions.space import HEADS, NEUTRAL
from tau_emotion.errors import describe, python_names
from tau_emotion.evaluation.metrics import MetricsReport, clean_outcome, compute_metrics
from tau_emotion.inputs import ConfigError
from tau_emotion.report.write import REPORT_FILE, write_run_outputs
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.outcome import EXIT_OK, RunOutcome, outcome_of_run
from tau_emotion.runner.results import RunFolderError, read_run_folder
from tau_emotion.runner.run import ProgressHook, RunWarning, execute_run


@dataclass
class Results:
    """The episodes of one run, with its metrics and a flat table of them.

    `outcome` is what the exit status of ``tau-emotion run`` says: whether every episode ran
    without an endpoint failure (code 0), or why not (`outcome.summary`); a run that did not
    end cleanly also says so in `warnings`."""

    config: RunConfig
    _episodes: list[Episode] = field(repr=False)
    warnings: list[str] = field(default_factory=list)
    outcome: RunOutcome | None = None

    @property
    def out(self) -> Path:
        return self.config.out

    @classmethod
    def load(cls, run_dir: str | Path) -> Results:
        """A finished (or interrupted) run directory; `RunFolderError` names a folder that
        is not one (or a damaged manifest)."""
        run = read_run_folder(Path(run_dir))
        with python_names():
            outcome = outcome_of_run(run.config, run.episodes) if run.episodes else None
        return cls(run.config, run.episodes, list(run.manifest.warnings), outcome)

    def episodes(self) -> list[Episode]:
        """Every episode of the run, as the typed records stored in results.jsonl."""
        return list(self._episodes)

    @cached_property
    def _metrics(self) -> MetricsReport:
        # Bootstrap seed 0, as `tau-emotion metrics` and the report use: the same numbers,
        # and the same warning first when the run's manifest says it is unfinished.
        return with_unfinished_warning(
            compute_metrics(self._episodes), read_progress(self.out), len(self._episodes)
        )

    def metrics(self) -> MetricsReport:
        """The same numbers as ``tau-emotion metrics`` (and OUT/metrics.json)."""
        if not self._episodes:
            raise RunFolderError(f"{self.out} holds no episodes: there are no metrics yet")
        return self._metrics

    def records(self) -> list[dict[str, Any]]:
        """One flat dict per episode: what `to_pandas` puts in its rows."""
        return [episode_record(e) for e in self._episodes]

    def to_pandas(self) -> Any:
        """A pandas DataFrame, one row per episode (`records`); pandas is optional, so this is
        the one method that needs it (imported by name: it ships no type information)."""
        try:
            pandas = importlib.import_module("pandas")
        except ImportError:
            raise ImportError(
                "Results.to_pandas() needs pandas, which tau-emotion does not install: "
                "pip install pandas (or use Results.records())"
            ) from None
        return pandas.DataFrame.from_records(self.records())


def episode_record(e: Episode) -> dict[str, Any]:
    emotion = e.emotion
    return {
        "domain": e.domain,
        "task_id": e.task_id,
        "trial": e.trial,
        "reward": e.reward,
        "success": e.success,
        # Success with no hard policy rule broken, as the tables' clean figures count it (None:
        # a success recorded before rules were audited); a reward-gaming agent shows here.
        "clean_success": clean_outcome(e),
        "policy_violations": len(e.breakdown.policy_violations) if e.breakdown else 0,
        "termination": e.termination.value,
        # One column per head of the space, as the metrics break results down.
        **{h: str(getattr(emotion, h)) if emotion else NEUTRAL for h in HEADS},
        "messages": len(e.messages),
        "tool_calls": sum(len(m.tool_calls or []) for m in e.messages),
        "errors": len(e.errors),
        "agent_prompt_tokens": e.usage_agent.prompt_tokens,
        "agent_completion_tokens": e.usage_agent.completion_tokens,
        "user_prompt_tokens": e.usage_user.prompt_tokens,
        "user_completion_tokens": e.usage_user.completion_tokens,
        "cost_usd": e.usage_agent.cost_usd + e.usage_user.cost_usd,
        "duration_s": e.duration_s,
    }


def _config(config: RunConfig | Mapping[str, Any] | None, fields: dict[str, Any]) -> RunConfig:
    """The run's config (`_build`), with its refusals as a `ConfigError` naming the keyword
    arguments."""
    with python_names():
        try:
            return _build(config, fields)
        except ValidationError as exc:
            raise ConfigError(describe(exc)) from None


def _build(config: RunConfig | Mapping[str, Any] | None, fields: dict[str, Any]) -> RunConfig:
    """`config` with `fields` changed (its automatic values worked out again, as the command
    line does for ``--config FILE`` plus options), or the config of `fields`."""
    if isinstance(config, RunConfig):
        return config.updated(**fields) if fields else config
    if isinstance(config, Mapping):  # the fields as a dict, as a TOML --config file holds them
        return RunConfig.model_validate({**config, **fields})
    if config is not None:
        raise TypeError(f"config must be a RunConfig or a dict of its fields, not {config!r}")
    return RunConfig.model_validate(fields)  # a model given by its name: RunConfig takes it


def evaluate(
    config: RunConfig | Mapping[str, Any] | None = None,
    *,
    resume: bool = False,
    retry_errors: bool = False,
    progress: ProgressHook | None = None,
    **fields: Any,
) -> Results:
    """Run (or finish, with `resume`) a benchmark run and return its results."""
    cfg = _config(config, fields)
    seen: list[str] = []
    with python_names():  # what the run says names the keyword arguments, not the options
        episodes = execute_run(
            cfg, resume=resume, progress=progress, retry_errors=retry_errors, on_warning=seen.append
        )
        # The files a command-line run leaves: OUT/metrics.json and OUT/report.html.
        outputs = write_run_outputs(cfg.out, episodes)
        if outputs.report_problem is not None:
            seen.append(f"{cfg.out / REPORT_FILE} not written: {outputs.report_problem}")
        outcome = outcome_of_run(cfg, episodes)
        if outcome.code != EXIT_OK:  # what the command line's exit status 3, 4 or 5 says
            seen.append(outcome.summary)
    for message in seen:  # after the run, so that a notebook shows them under the cell
        warnings.warn(message, RunWarning, stacklevel=2)
    return Results(cfg, episodes, seen, outcome)


async def evaluate_async(
    config: RunConfig | Mapping[str, Any] | None = None,
    *,
    resume: bool = False,
    retry_errors: bool = False,
    progress: ProgressHook | None = None,
    **fields: Any,
) -> Results:
    """`evaluate` as a coroutine: the run plays in a worker thread with its own event loop,
    so the caller's loop (a notebook's, a server's) keeps running meanwhile."""
    cfg = _config(config, fields)
    return await asyncio.to_thread(
        evaluate, cfg, resume=resume, retry_errors=retry_errors, progress=progress
    )
