"""How often the oracle agent loses the scripted emotional user, by emotion family and dimension.

The oracle does exactly the gold actions and never acknowledges feelings, so every walk-away
measured here is caused by the scripted user's patience model alone (see docs/users.md).
Each seed task is played under a stride of the 594 conditions (every condition appears on
many tasks), offline and deterministically.

Beside it plays the same oracle with a fixed apology in front of every reply ("I understand,
I'm sorry about this."): empathy is meant to count only when it answers what this customer
said, so the formula should move the success rate by at most a point (issue #15).

    python benchmarks/oracle_patience.py [--stride 6] [--domains all]
    python benchmarks/oracle_patience.py --quick      # what the test suite runs
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict
from collections.abc import Sequence

from bench_args import QUICK_RULE, domain_list, fill_defaults, int_in_range

from tau_emotion.data import Message, Task, TerminationReason
from tau_emotion.domains import load_domain
from tau_emotion.emotions.space import all_conditions
from tau_emotion.environment import Environment
from tau_emotion.simulation.agents import OracleAgent
from tau_emotion.simulation.loop import run_episode
from tau_emotion.simulation.participants import EpisodeSetup
from tau_emotion.simulation.users import ScriptedUser

APOLOGY = "I understand, I'm sorry about this."


class ApologisingOracle(OracleAgent):
    """The oracle with the same apology in front of every text reply: a formula, not empathy."""

    async def respond(self, messages: Sequence[Message]) -> Message:
        reply = await super().respond(messages)
        if not reply.content:
            return reply
        return reply.model_copy(update={"content": f"{APOLOGY} {reply.content}"})


async def play(
    tasks: list[Task], stride: int, agent: type[OracleAgent] = OracleAgent
) -> dict[str, dict[str, list[int]]]:
    conditions = all_conditions()
    # group -> value -> [episodes, walk-aways, successes]
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    envs: dict[tuple[str, str], Environment] = {}
    for i, base in enumerate(tasks):
        domain = load_domain(base.domain)
        variant = domain.variant_for(base.split)
        env = envs.setdefault((base.domain, variant), Environment(domain, variant))
        for condition in conditions[i % stride :: stride]:
            task = base.model_copy(update={"emotion": condition.to_spec("You feel it.")})
            setup = EpisodeSetup(task, domain, seed=i, trial=0)
            episode = await run_episode(setup, agent(setup), ScriptedUser(setup), env)
            walked = episode.termination == TerminationReason.USER_UNSATISFIED
            for group, value in (
                ("family", condition.family),
                ("urgency", condition.urgency),
                ("trust", condition.trust),
                ("politeness", condition.politeness),
                ("all", "all"),
            ):
                row = table[group][value]
                row[0] += 1
                row[1] += walked
                row[2] += episode.success
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=QUICK_RULE)
    # A stride of 0 divides by zero and a negative one walks the conditions backwards, one
    # per task; past the number of conditions every task gets at most one.
    parser.add_argument(
        "--stride",
        type=int_in_range(1, len(all_conditions())),
        default=None,
        help="Every Nth condition per task (default 6; 99 under --quick).",
    )
    parser.add_argument(
        "--domains",
        type=domain_list,
        default="all",
        help="Domains whose seed tasks to use: a name, a comma list or 'all'.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="Two seed tasks per domain, every 99th condition."
    )
    args = parser.parse_args()
    fill_defaults(args, {"stride": 6}, quick={"stride": 99})
    per_domain = 2 if args.quick else None
    stride: int = args.stride
    tasks = [
        t
        for name in args.domains
        for t in [t for t in load_domain(name).tasks() if t.provenance == "seed"][:per_domain]
    ]
    table = asyncio.run(play(tasks, stride))
    apologetic = asyncio.run(play(tasks, stride, ApologisingOracle))
    print(f"{len(tasks)} seed tasks, every {stride}th of 594 conditions per task")
    print("| group | value | episodes | walked away | success | success, fixed apology |")
    print("|---|---|---|---|---|---|")
    for group in ("all", "family", "urgency", "trust", "politeness"):
        for value, (n, walked, ok) in table[group].items():
            sorry = apologetic[group][value][2]
            print(
                f"| {group} | {value} | {n} | {walked / n:.3f} | {ok / n:.3f} | {sorry / n:.3f} |"
            )
    n, ok, sorry = table["all"]["all"][0], table["all"]["all"][2], apologetic["all"]["all"][2]
    print(
        f"fixed apology: {100 * (sorry - ok) / n:+.1f} points of success ({ok} -> {sorry} of {n})"
    )


if __name__ == "__main__":
    main()
