"""What a finished run means for CI: its exit code, its one-line summary, and when to stop.

Exit codes of ``tau-emotion run`` (and ``collect``), documented in the README:

- 0 `EXIT_OK`: every episode ran and none ended in an infrastructure error;
- 2 `EXIT_INPUT`: bad input (an option, a file, a URL); nothing ran;
- 3 `EXIT_INFRA_ERRORS`: the run finished, but some episodes ended in ``infra_error``;
- 4 `EXIT_STOPPED`: ``--fail-on-error`` stopped the run early;
- 5 `EXIT_NO_RESPONSE`: episodes needed a model and not one request to it succeeded (the
  endpoint was never reachable, or replay mode found an empty cache);
- 130 `EXIT_INTERRUPTED`: the run was interrupted (Ctrl-C, a killed job) before it held every
  episode, and no error budget stopped it: what the command exits with after Ctrl-C, and what
  `Results.load` says of such a folder.

Only endpoint failures set the status: an agent's bad tool call or a walk-away is a result,
not an error of the run. Episodes that ended in another error (the agent's protocol, the
simulator, the framework or a task whose gold replay failed) are scored as failures and
leave the status at 0, but the summary line names them, so "no infra errors" never reads as
"no errors".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tau_emotion.data import ERROR_TERMINATION, Episode, RunManifest, TerminationReason
from tau_emotion.errors import named
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.results import MANIFEST_FILE, RESULTS_FILE, load_episodes
from tau_emotion.storage import read_model

EXIT_OK = 0
EXIT_INPUT = 2
EXIT_INFRA_ERRORS = 3
EXIT_STOPPED = 4
EXIT_NO_RESPONSE = 5
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as shells report a Ctrl-C (the status `tau-emotion run` exits with then)."""


def error_limit(fail_on_error: float | None, episodes: int) -> int | None:
    """Most infra errors a run of `episodes` tolerates before it stops; None: no limit.

    Below 1 the value is a fraction of the run's episodes (0.1: more than 10% stops it; 0: the
    first error does), from 1 on a count (5: the sixth error stops it), as in inspect-ai.
    """
    if fail_on_error is None:
        return None
    if fail_on_error < 1:
        return math.floor(fail_on_error * episodes)
    return int(fail_on_error)


class ErrorBudget:
    """Counts episodes that failed on the endpoint and says when the run should stop."""

    def __init__(self, fail_on_error: float | None, episodes: int) -> None:
        self.limit = error_limit(fail_on_error, episodes)
        self.fail_on_error = fail_on_error
        self.errors = 0
        self.stopped = False

    def record(self, episode: Episode) -> bool:
        """Count one finished episode; False once the run should take no more episodes."""
        if episode.termination == TerminationReason.INFRA_ERROR:
            self.errors += 1
        if self.limit is not None and self.errors > self.limit:
            self.stopped = True
        return not self.stopped


@dataclass(frozen=True)
class RunOutcome:
    """The exit code of a run and the line that explains it."""

    code: int
    summary: str


def model_requests(episode: Episode) -> int:
    """Model calls of an episode that got an answer (a failed call is never counted)."""
    return episode.usage_agent.calls + episode.usage_user.calls


def other_errors(episodes: Sequence[Episode]) -> str:
    """'; 2 ended in another error (framework_error 2), scored as failures', or ''."""
    others = set(ERROR_TERMINATION.values()) - {TerminationReason.INFRA_ERROR}
    counts = Counter(e.termination.value for e in episodes if e.termination in others)
    if not counts:
        return ""
    kinds = ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))
    return f"; {sum(counts.values())} ended in another error ({kinds}), scored as failures"


def _retry_phrase() -> str:
    """How a summary says to run the failed episodes again, in the caller's terms (the Python
    API's keyword arguments, or the command line's options)."""
    return named("--resume --retry-errors", "resume=True, retry_errors=True")


def run_outcome(
    episodes: Sequence[Episode],
    expected: int,
    stopped: bool = False,
    uses_model: bool = True,
    interrupted: bool = False,
) -> RunOutcome:
    """The outcome of a run that should hold `expected` episodes and holds `episodes`:
    `stopped` by its error budget, or `interrupted` short of `expected` otherwise."""
    infra = sum(e.termination == TerminationReason.INFRA_ERROR for e in episodes)
    answered = sum(model_requests(e) for e in episodes)
    share = f"{infra} of {len(episodes)} episodes ended in an infra error" + other_errors(episodes)
    if uses_model and infra and answered == 0:
        return RunOutcome(
            EXIT_NO_RESPONSE,
            f"no model request succeeded: {share} (is the endpoint up, the URL right, "
            "or the replay cache empty?)",
        )
    if stopped:
        return RunOutcome(
            EXIT_STOPPED,
            f"stopped early by {named('--fail-on-error', 'fail_on_error')} after "
            f"{len(episodes)} of {expected} episodes: {share}; {_retry_phrase()} finishes it",
        )
    if interrupted:
        return RunOutcome(
            EXIT_INTERRUPTED,
            f"interrupted after {len(episodes)} of {expected} episodes: {share}; "
            f"{named('--resume', 'resume=True')} finishes it",
        )
    if infra:
        return RunOutcome(EXIT_INFRA_ERRORS, f"{share}; {_retry_phrase()} re-runs them")
    ran = f"{len(episodes)} of {expected} episodes ran, no infra errors"
    return RunOutcome(EXIT_OK, ran + other_errors(episodes))


def stopped_by_budget(fail_on_error: float | None, episodes: Sequence[Episode], total: int) -> bool:
    """Whether the run's error budget is spent: the only way a run stops short on its own.

    The runner counts the latest record of each episode against the budget of the whole
    run (`ErrorBudget`), so the stored records say whether it stopped the run; a run short of
    its total without that was interrupted."""
    limit = error_limit(fail_on_error, total)
    infra = sum(e.termination == TerminationReason.INFRA_ERROR for e in episodes)
    return limit is not None and infra > limit


def outcome_of_run(config: RunConfig, episodes: Sequence[Episode] | None = None) -> RunOutcome:
    """The outcome of a run `execute_run` just returned from (its manifest holds the total).

    Without `episodes`, the latest record of each episode in the run's results file counts.
    """
    if episodes is None:
        episodes = list(load_episodes(config.out / RESULTS_FILE).values())
    manifest = read_model(config.out / MANIFEST_FILE, RunManifest)
    expected = manifest.episodes_total
    uses_model = config.agent_model is not None or config.user_model is not None
    short = len(episodes) < expected
    # Short of its total, a run was either stopped by --fail-on-error or cut off (Ctrl-C, a
    # killed job): only a spent error budget is the former.
    stopped = short and stopped_by_budget(config.fail_on_error, episodes, expected)
    return run_outcome(episodes, expected, stopped, uses_model, short and not stopped)
