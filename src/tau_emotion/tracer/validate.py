"""Stage 6: validation. A task is kept only if every check passes; each failure is recorded.

Deterministic checks, cheapest first:

- ``no_concrete_goal``: an intent changes nothing and tells nothing, or has no request;
- ``missing_emotion`` / ``twin_mismatch``: the condition or the neutral twin is missing or
  differs from the task in more than the emotion;
- ``id_leak``: an internal id appears in the instruction, a request, the feeling or the
  emotion instruction;
- ``underivable:<tool>.<param>``: a gold argument can be derived neither from what the
  customer says (instruction, facts) nor from tool outputs the agent sees earlier (an id used
  in a write must also be described in the instruction, so the agent knows which one);
- ``gold_refused`` / ``replay_mismatch``: the gold actions fail, or two replays do not both
  reach the recorded hash;
- ``challenge_inconsequential``: a policy challenge whose forbidden write its rule allows, the
  tool refuses, or changes nothing (giving in would not show in the final state);
- ``unchanged_state`` / ``undone_write`` / ``output_given``: the task pays for less than its
  goal (`earned_problems`);
- ``policy:<rule>``: the oracle's conversation breaks a policy check;
- ``oracle_failed``: the oracle agent with the scripted user (no emotion) does not reach
  reward 1.0.

An LLM judge (`llm.judge_task`) runs last, only when configured, for what no check decides: whether
the instruction reads as one coherent customer's goal.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tau_emotion.data import Action, Task
from tau_emotion.domains.checks import run_checks
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.environment import Environment
from tau_emotion.errors import DomainError, ToolError
from tau_emotion.evaluation.outputs import output_communicated
from tau_emotion.tracer.jsonl import (
    Settings,
    appender,
    progress,
    read_jsonl,
    resume_from,
)
from tau_emotion.tracer.oracle import replay_task
from tau_emotion.tracer.preference import pinned_by, says
from tau_emotion.tracer.profile import Profile, internal_ids
from tau_emotion.tracer.records import Candidate, Felt, Rejection, Verdict
from tau_emotion.tracer.values import (
    FREE_TEXT,
    humanize,
    looks_like_id,
    parse_result,
    scalars,
    spoken_dates,
)

if TYPE_CHECKING:
    from tau_emotion.models.base import ChatModel

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9]")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def leaked_ids(texts: Iterable[str], ids: frozenset[str]) -> list[str]:
    """Internal ids found in customer-facing text."""
    found: list[str] = []
    for text in texts:
        for token in _TOKEN.findall(text):
            if token in ids and token not in found:
                found.append(token)
    return found


def _numbers(text: str) -> set[float]:
    return {float(n) for n in _NUMBER.findall(text.replace(",", ""))}


def underivable(
    profile: Profile, candidate: Candidate, results: Sequence[str], requests_said: bool = True
) -> list[str]:
    """Gold arguments nobody in the conversation could have come up with. `requests_said`:
    whether the intents' opening requests count as said (see `check`)."""
    task = candidate.task
    kinds = profile.domain.tool_kinds
    requests = [i.request for i in task.intents] if requests_said else []
    said = " ".join([task.instruction, *task.known_facts.values(), *requests]).lower()
    said_numbers = _numbers(said)
    problems: list[str] = []
    seen = ""
    seen_numbers: set[float] = set()
    shown: list[Any] = []
    offered = _offered_actions(task, kinds)
    policy_numbers = _numbers(profile.domain.policy) if offered else set()
    for step, (action, result) in enumerate(zip(task.gold_actions, results, strict=True)):
        for param, value in action.arguments.items():
            if param in FREE_TEXT:
                continue
            if step in offered and _offer_derivable(value, seen, seen_numbers | policy_numbers):
                continue
            whole = candidate.mentions.get(repr(value), "")
            if isinstance(value, dict | list) and whole and whole.lower() in said:
                continue  # a basket or a list the instruction describes as a whole
            for leaf in scalars(value, keys=True):
                if _derivable(leaf, said, said_numbers, seen, seen_numbers, candidate):
                    continue
                preferred = candidate.preferred.get(str(leaf))
                if preferred and says(preferred, said) and pinned_by(leaf, preferred, shown):
                    continue  # "the earliest slot": the lookup the agent ran pins it down
                if param == profile.customer_param and str(leaf) in seen:
                    continue
                if kinds[action.name] == "read" and str(leaf) in seen:
                    continue
                problems.append(f"{action.name}.{param}")
                break
        seen += " " + result
        seen_numbers |= _numbers(result)
        shown.append(parse_result(result))
    return problems


def _offered_actions(task: Task, kinds: Mapping[str, str]) -> set[int]:
    """Gold steps (indexes into `task.gold_actions`) of the alternative a challenge settles
    for: the agent proposes it from the policy and the records it has looked up, so the
    customer never has to say its values."""
    challenge = task.challenge
    if challenge is None or challenge.settles_for != "alternative":
        return set()
    start = sum(len(i.actions) for i in task.intents[: challenge.intent])
    actions = task.intents[challenge.intent].actions
    return {start + k for k, a in enumerate(actions) if kinds[a.name] == "write"}


def _offer_derivable(value: Any, seen: str, numbers: set[float]) -> bool:
    for leaf in scalars(value, keys=True):
        if isinstance(leaf, bool):
            continue  # a delivery option the agent asks about like any other
        if isinstance(leaf, int | float):
            if float(leaf) not in numbers:
                return False
        elif str(leaf) not in seen:
            return False
    return True


def _derivable(
    leaf: Any,
    said: str,
    said_numbers: set[float],
    seen: str,
    seen_numbers: set[float],
    candidate: Candidate,
) -> bool:
    if isinstance(leaf, int | float):
        return float(leaf) in said_numbers or float(leaf) in seen_numbers
    text = str(leaf)
    if text.lower() in said or humanize(text).lower() in said:
        return True
    if any(re.search(rf"\b{form}\b", said) for form in spoken_dates(text)):
        return True
    if text in seen:
        # Seen in an output: the customer must still say which one (by its description).
        if not looks_like_id(text):
            return True
        desc = candidate.mentions.get(text, "")
        return bool(desc) and desc.lower() in said
    return False


def _twin_problem(task: Task, twin: Task | None) -> str:
    if twin is None:
        return "the test task has no neutral twin"
    strip = {"id", "emotion", "feeling", "neutral_twin_id"}
    if task.model_dump(exclude=strip) != twin.model_dump(exclude=strip):
        return "the twin differs in more than the emotion"
    if twin.emotion is not None or twin.neutral_twin_id != task.id:
        return "the twin carries an emotion or does not point back"
    if task.neutral_twin_id != twin.id:
        return "the task does not point to its twin"
    return ""


def oracle_reward(profile: Profile, task: Task) -> float:
    """Reward of the oracle agent with the scripted user, the task run without emotion."""
    from tau_emotion.simulation.agents import OracleAgent
    from tau_emotion.simulation.loop import run_episode
    from tau_emotion.simulation.participants import EpisodeSetup
    from tau_emotion.simulation.users.scripted import ScriptedUser

    neutral = task.model_copy(update={"emotion": None})
    domain = profile.domain
    env = profile.env("validate", domain.variant_for(task.split))
    setup = EpisodeSetup(task=neutral, domain=domain, seed=0, trial=0)
    episode = asyncio.run(run_episode(setup, OracleAgent(setup), ScriptedUser(setup), env))
    return episode.reward


def challenge_problem(profile: Profile, task: Task, env: Environment) -> str:
    """Why a challenge task does not test its rule (empty when it does): where the agent
    refuses (after the gold before the challenged intent and that intent's lookups), the rule
    must forbid each forbidden write, and the tool must carry it out and change the database,
    so giving in shows in the final state. The alternative the customer then settles for
    comes after the refusal and does not count."""
    challenge = task.challenge
    if challenge is None:
        return ""
    rules = {c.rule_id: c for c in profile.domain.checks}
    rule = rules.get(challenge.rule_id)
    if rule is None or rule.judgement is None:
        return f"{challenge.rule_id} is not a judgement rule of {profile.name}"
    env.reset()
    try:
        kinds = profile.domain.tool_kinds
        for n, intent in enumerate(task.intents[: challenge.intent + 1]):
            for action in intent.actions:
                settling = n == challenge.intent and challenge.settles_for == "alternative"
                if settling and kinds[action.name] == "write":
                    break  # the refusal comes here; the alternative after it
                env.call(action.name, dict(action.arguments))
        for action in challenge.forbidden:
            if rule.forbids(env.tools, action.name, action.arguments) is None:
                return f"{challenge.rule_id} allows {action.name} {action.arguments}"
            before = env.hash()
            env.call(action.name, dict(action.arguments))
            if env.hash() == before:
                return f"{action.name} {action.arguments} changes nothing"
    except ToolError as exc:
        return f"refused: {str(exc)[:160]}"
    finally:
        env.reset()
    return ""


def _reverted_writes(gold: Sequence[Action], env: Environment) -> set[int]:
    """Gold writes every row of which ends the gold as it started (a freeze the next intent
    lifts): the state drops a row written back to its pristine value."""
    env.reset()
    touched: dict[int, set[tuple[str, str]]] = {}
    for i, action in enumerate(gold):
        before = env.state.changes()
        env.call(action.name, dict(action.arguments))
        if env.kind(action.name) != "write":
            continue
        after = env.state.changes()
        touched[i] = {
            (table, key)
            for table, rows in after.items()
            for key, row in rows.items()
            if before.get(table, {}).get(key, _ABSENT) is not row
        }
    final = env.state.changes()
    env.reset()
    return {
        i
        for i, rows in touched.items()
        if rows and all(key not in final.get(table, {}) for table, key in rows)
    }


_ABSENT = object()


def earned_problems(task: Task, env: Environment, digest: str) -> list[tuple[str, str]]:
    """Ways a task pays an agent for less than its goal (reason code, detail):

    - ``unchanged_state``: the gold ends where the database started, yet the task is neither
      a policy challenge nor a question with a required output (doing nothing would pass);
    - ``undone_write``: leaving one gold write out reaches the same final state (another
      intent undoes it, or it ends up changing nothing);
    - ``output_given``: a required output is already in the instruction or the known facts,
      so the agent could echo the customer.
    """
    out: list[tuple[str, str]] = []
    env.reset()
    if digest == env.hash() and task.challenge is None and not any(i.outputs for i in task.intents):
        out.append(("unchanged_state", "the gold leaves the database as it was"))
    gold = task.gold_actions
    undone = _reverted_writes(gold, env)
    for i, action in enumerate(gold):
        if env.kind(action.name) != "write" or i in undone:
            continue
        try:
            without = env.replay([a for j, a in enumerate(gold) if j != i])
        except DomainError:
            continue  # a later action needs this one
        if without == digest:
            undone.add(i)
    for i in sorted(undone):
        out.append(("undone_write", f"{gold[i].name} {json.dumps(gold[i].arguments)}"))
    given = [task.instruction, *task.known_facts.values()]
    for intent in task.intents:
        for output in intent.outputs:
            if output_communicated(output, given):
                out.append(("output_given", output))
    return out


def check(
    profile: Profile, felt: Felt, run_oracle: bool = True, requests_said: bool = True
) -> list[Rejection]:
    """Every failed check of one candidate (empty: keep it).

    `requests_said=False` judges the instruction without the requests' help: the scripted
    customer says each request word for word, but the LLM customer is shown only the
    instruction and the known facts, so the instruction alone must state what the gold
    needs. The writer writes both from the same calls; a hand review rewrites the
    instruction, and "Please help me." passed while the untouched requests said it all."""
    candidate = felt.candidate
    if candidate is None:
        return [felt.rejection or Rejection(stage="validate", reason="no_candidate")]
    task = candidate.task

    def fail(reason: str, detail: str = "") -> Rejection:
        return Rejection(stage="validate", reason=reason, detail=detail)

    out: list[Rejection] = []
    kinds = profile.domain.tool_kinds
    challenged = task.challenge.intent if task.challenge is not None else None
    for n, intent in enumerate(task.intents):
        acts = [a for a in intent.actions if kinds.get(a.name) != "read"]
        if n == challenged:  # its goal is the refusal: no write, nothing to tell
            continue
        if not intent.request.strip() or not (acts or intent.outputs):
            out.append(fail("no_concrete_goal", f"intent {n} changes and tells nothing"))
    if task.emotion is None:
        out.append(fail("missing_emotion"))
    if task.split == "test":
        problem = _twin_problem(task, felt.twin)
        if problem:
            out.append(fail("twin_mismatch", problem))
    texts = [task.instruction, *(i.request for i in task.intents), task.feeling or ""]
    if task.emotion is not None:
        texts.append(task.emotion.instruction)
    leaks = leaked_ids(texts, internal_ids(profile, candidate.variant))
    if leaks:
        out.append(fail("id_leak", ", ".join(leaks[:5])))
    env = profile.env("validate", candidate.variant)
    try:
        messages, digest = replay_task(task, env)
        _, again = replay_task(task, env)
    except ToolError as exc:
        return [*out, fail("gold_refused", str(exc)[:200])]
    if digest != candidate.final_hash or again != digest:
        out.append(fail("replay_mismatch", f"{digest[:12]} vs {candidate.final_hash[:12]}"))
    problem = challenge_problem(profile, task, env)
    if problem:
        out.append(fail("challenge_inconsequential", problem))
    if not out:  # replays: only worth it for a task that replays at all
        out += [fail(*p) for p in earned_problems(task, env, digest)]
    results = [m.content or "" for m in messages if m.role == "tool"]
    for problem in underivable(profile, candidate, results, requests_said):
        out.append(fail(f"underivable:{problem}"))
    violations = run_checks(profile.domain.checks, Trajectory(messages, kinds, env.fresh_tools))
    for v in violations[:3]:
        out.append(fail(f"policy:{v.rule_id}", v.detail))
    if run_oracle and not out and oracle_reward(profile, task) != 1.0:
        out.append(fail("oracle_failed", "the oracle with the scripted user did not succeed"))
    return out


def validate_settings(run_oracle: bool, judge: ChatModel | None = None) -> Settings:
    """What a validate file depends on besides its candidates: whether the oracle episode
    ran, and which LLM judge had the last word."""
    return {"oracle": run_oracle, "judge": judge.name if judge is not None else None}


def run_validate(
    profile: Profile,
    felt_path: Path,
    out: Path,
    run_oracle: bool = True,
    judge: Any = None,
    show: bool = True,
) -> list[Verdict]:
    """The validate stage over files: one verdict per candidate (and per earlier rejection).
    A file validated with another oracle setting or judge is refused (`InputError`)."""
    felts = read_jsonl(felt_path, Felt)
    have = resume_from(out, "walk_id", validate_settings(run_oracle, judge))  # inputs read
    todo = [f for f in felts if f.walk_id not in have]
    with appender(out) as add, progress(out, len(todo), show) as tick:
        for felt in todo:
            reasons = check(profile, felt, run_oracle)
            if not reasons and judge is not None and felt.candidate is not None:
                from tau_emotion.tracer.llm import judge_task

                verdict = judge_task(judge, felt.candidate.task)
                if verdict:
                    reasons = [Rejection(stage="validate", reason="judge", detail=verdict)]
            accepted = not reasons
            add(
                Verdict(
                    walk_id=felt.walk_id,
                    accepted=accepted,
                    reasons=reasons,
                    candidate=felt.candidate if accepted else None,
                    twin=felt.twin if accepted else None,
                )
            )
            tick()
    return read_jsonl(out, Verdict)


def dumps(verdict: Verdict) -> str:
    return json.dumps([r.reason for r in verdict.reasons])
