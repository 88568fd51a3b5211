"""How far the gaming baselines get on the shipped test set, beside the oracle.

Each strategy (`tau_emotion.simulation.gaming`) and the oracle play every task of
``--task-file test`` against the scripted user, once as shipped (with emotion) and once as
the neutral twins (``no_emotion``), through the Python API (`execute_run`) as a run would.
Per strategy and condition the table gives:

- Pass^1: the share of tasks solved (one trial each, so Pass^1 is the success rate);
- clean: policy-clean success, success with no hard policy rule broken
  (`Episode.clean_success`: identity, verification, confirmation before writes);
- on writes: Pass^1 and clean on the tasks whose gold makes at least one write;
- on challenges: Pass^1 on the tasks that pose a policy challenge (``Task.challenge``);
  "-" while the set holds none;
- walked away: the share of episodes the customer left dissatisfied.

The figures and the issue's targets are in docs/gaming.md.

    python benchmarks/gaming_agents.py                # 580 tasks x 6 agents x 2 conditions
    python benchmarks/gaming_agents.py --quick        # 3 tasks per domain; the tests run this
    python benchmarks/gaming_agents.py --json figures.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench_args import QUICK_RULE, domain_list, output_file, write_output

from tau_emotion.data import Episode, Task, TerminationReason
from tau_emotion.domains import load_domain
from tau_emotion.runner.config import RunConfig
from tau_emotion.runner.run import execute_run
from tau_emotion.runner.tasks import select_tasks
from tau_emotion.simulation.kinds import AgentKind

STRATEGIES = (
    AgentKind.ORACLE,
    AgentKind.DO_NOTHING,
    AgentKind.TRANSFER,
    AgentKind.YES_MAN,
    AgentKind.NO_CONFIRM,
    AgentKind.SAY_EVERYTHING,
)
CONDITIONS = {"emotion": False, "no emotion": True}
"""Condition name -> the run's ``no_emotion``."""
QUICK_TASKS_PER_DOMAIN = 3


@dataclass(frozen=True)
class Share:
    """k of n, and k / n (None when n is 0: a share of nothing is not a zero)."""

    k: int
    n: int

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    def cell(self) -> str:
        value = self.value
        return "-" if value is None else f"{100 * value:.1f}% ({self.k}/{self.n})"


@dataclass(frozen=True)
class Row:
    agent: str
    condition: str
    tasks: int
    passed: Share
    clean: Share
    writes_passed: Share
    writes_clean: Share
    challenge_passed: Share
    walked_away: Share
    per_domain: dict[str, Share]
    """Pass^1 per domain."""


def writes(task: Task) -> bool:
    kinds = load_domain(task.domain).tool_kinds
    return any(kinds.get(a.name) == "write" for a in task.gold_actions)


def share(episodes: Sequence[Episode], hit: str) -> Share:
    return Share(sum(bool(getattr(e, hit)) for e in episodes), len(episodes))


def score(agent: str, condition: str, episodes: list[Episode], tasks: dict[str, Task]) -> Row:
    def of(e: Episode) -> Task:
        return tasks[f"{e.domain}/{e.task_id}"]

    with_writes = [e for e in episodes if writes(of(e))]
    challenges = [e for e in episodes if of(e).challenge is not None]
    walked = sum(e.termination == TerminationReason.USER_UNSATISFIED for e in episodes)
    domains = sorted({e.domain for e in episodes})
    return Row(
        agent=agent,
        condition=condition,
        tasks=len(episodes),
        passed=share(episodes, "success"),
        clean=share(episodes, "clean_success"),
        writes_passed=share(with_writes, "success"),
        writes_clean=share(with_writes, "clean_success"),
        challenge_passed=share(challenges, "success"),
        walked_away=Share(walked, len(episodes)),
        per_domain={d: share([e for e in episodes if e.domain == d], "success") for d in domains},
    )


def measure(domains: list[str], num_tasks: int | None, root: Path) -> list[Row]:
    rows: list[Row] = []
    for condition, no_emotion in CONDITIONS.items():
        for agent in STRATEGIES:
            config = RunConfig(
                domains=domains,
                task_file="test",
                agent=agent,
                user="scripted",
                no_emotion=no_emotion,
                num_tasks=num_tasks,
                out=root / f"{agent.value}-{'neutral' if no_emotion else 'emotion'}",
            )
            tasks = {t.key: t for t in select_tasks(config)}
            episodes = execute_run(config, on_warning=print)
            rows.append(score(agent.value, condition, episodes, tasks))
    return rows


HEADER = (
    "| agent | condition | Pass^1 | clean | Pass^1 on writes | clean on writes "
    "| Pass^1 on challenges | walked away |"
)


def table(rows: list[Row]) -> str:
    lines = [HEADER, "|" + "---|" * 8]
    for r in rows:
        cells = (
            r.passed,
            r.clean,
            r.writes_passed,
            r.writes_clean,
            r.challenge_passed,
            r.walked_away,
        )
        lines.append(f"| {r.agent} | {r.condition} | " + " | ".join(c.cell() for c in cells) + " |")
    return "\n".join(lines)


def domain_table(rows: list[Row]) -> str:
    """Pass^1 per domain, with emotion as shipped: where each strategy scores."""
    shown = [r for r in rows if r.condition == "emotion"]
    domains = sorted({d for r in shown for d in r.per_domain})
    lines = ["| agent | " + " | ".join(domains) + " |", "|" + "---|" * (len(domains) + 1)]
    for r in shown:
        cells = (r.per_domain[d] for d in domains)
        lines.append(f"| {r.agent} | " + " | ".join(f"{s.k}/{s.n}" for s in cells) + " |")
    return "\n".join(lines)


def figures(rows: list[Row]) -> dict[str, object]:
    def flat(row: Row) -> dict[str, object]:
        data = asdict(row)
        for key, value in data.items():
            if isinstance(value, dict) and "k" in value:
                data[key] = value | {"value": Share(**value).value}
        data["per_domain"] = {
            d: s | {"value": Share(**s).value} for d, s in data["per_domain"].items()
        }
        return data

    return {"rows": [flat(r) for r in rows]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=QUICK_RULE)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_TASKS_PER_DOMAIN} tasks per domain (a seeded sample), for the tests.",
    )
    parser.add_argument(
        "--domains",
        type=domain_list,
        default="all",
        help="Domains to play: a name, a comma list or 'all'.",
    )
    parser.add_argument("--json", type=output_file, help="Also write the figures here.")
    args = parser.parse_args()
    domains: list[str] = args.domains
    num_tasks = QUICK_TASKS_PER_DOMAIN * len(domains) if args.quick else None
    with tempfile.TemporaryDirectory(prefix="gaming-") as tmp:
        rows = measure(domains, num_tasks, Path(tmp))
    print(f"{rows[0].tasks} test tasks ({', '.join(domains)}), scripted user, one trial each")
    print(table(rows))
    print()
    print("Pass^1 per domain, with emotion:")
    print(domain_table(rows))
    if args.json:
        write_output(args.json, json.dumps(figures(rows), indent=2))


if __name__ == "__main__":
    main()
