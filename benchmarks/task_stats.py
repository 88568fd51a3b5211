"""How natural and how policy-bearing the shipped Tracer task sets are, against the targets.

Prints every figure of the natural-task issue (#15, item 1) and of the policy issue (#14,
items 2 and 4) over the Tracer-built tasks (provenance ``tracer...``) of the shipped sets,
per domain and overall, the test split with each target marked met or missed, then the
train split (built by the same writer) the same way. Gold end states are the hashes in
``domains/<d>/tracer/hashes.json`` (keys ``<split>/<task id>``). The build's own funnel
(candidates, rejections) is `tau_emotion.tracer.stats`; this reads only the shipped files.

Definitions (the helpers below say the same):

- words: whitespace-separated tokens of ``instruction`` (the emotion text is apart);
- writes: gold actions whose tool kind is ``write``;
- reason: the instruction matches `REASON` (because, so that, since, as I/you..., due to,
  in order to, otherwise, now that, given that, the reason, "..., so", which is why, so
  you'd / so I want..., for my/your + a person or an occasion); a reason stated with no
  marker at all ("Money is tight this month. Cancel order X.") is not counted;
- verbatim: every scalar string/number value of the gold writes (nested ones too) that is
  not an id (`is_id`) appears in the instruction on token boundaries, ignoring case and
  reading "_" as a space; of the tasks whose writes have such a value;
- skeletons: see `skeleton`; 3-gram overlap: see `overlapping`;
- preferences: gold write values that a lookup the gold ran before shows strictly at the end
  of its list (the earliest slot, the cheapest add-on; `tau_emotion.tracer.preference`),
  and of those, the ones the instruction names by that preference ("earliest", "first",
  "cheapest"...) without spelling the value out;
- idle lookups: gold reads that name a record (an id or a receipt code, not the customer's
  own id) when no later write, nor the challenge's forbidden action, acts on that record or
  on one its result shows (`idle_reads`; the gold is replayed for the results);
- the "overall" column pools the domains, except for "in every domain" figures (challenge
  share) and "most tasks per customer", which take the worst domain. Pairs (identical
  instructions, same end state) are counted within a domain.

    python benchmarks/task_stats.py                   # test and train, all domains
    python benchmarks/task_stats.py --quick           # one domain's first 20; the tests run this
    python benchmarks/task_stats.py --json figures.json --check   # exit 1 on a missed target
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, get_args

from bench_args import QUICK_RULE, domain_list, output_file, write_output

from tau_emotion.data import Split, Task, Urgency
from tau_emotion.domains import Domain, load_domain
from tau_emotion.emotions.space import FAMILIES
from tau_emotion.environment import Environment
from tau_emotion.tracer.graph import is_entity_param
from tau_emotion.tracer.oracle import replay_task
from tau_emotion.tracer.preference import preference_of, says
from tau_emotion.tracer.profile import Profile, profile_for
from tau_emotion.tracer.values import parse_result

QUICK_TASKS = 20
OVERLAP = 0.8
URGENCIES: tuple[str, ...] = get_args(Urgency)

REASON = re.compile(
    r"\b(because|'?cause|so that|since|due to|in order to|otherwise|now that|given that"
    r"|the reason|so (?:i|you|we|they|he|she) (?:can|could|don't|won't|do not|will not)"
    r"|(?:,|;|—| -) so (?=\w)|which is why|that(?:'s| is) why"
    r"|so (?:i|you|we|they|he|she)(?:'d| would| want| need| have to| must)"
    r"|as (?:i|you|we|they|he|she|my|your|our|it's)"
    r"|for (?:my|your|our|their) (?:\w+'s )?(?:wife|husband|partner|son|daughter|kids?|child"
    r"|children|mother|mom|father|dad|parents|family|friends?|boss|team|work|job|trip|wedding"
    r"|birthday|anniversary|holiday|vacation|party|event|move|business|health|safety))\b",
    re.IGNORECASE,
)
"""A reason the customer gives, anywhere in the instruction. "for my/your" counts only before
a person or an occasion ("for my daughter's wedding"): before a record ("a refund for your
order") it names the object, not the motive."""

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_AMOUNT = r"\d+(?:,\d{3})*(?:\.\d+)?"
_SKELETON_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']+'(?!\w)"), "<QUOTE>"),
    (re.compile(r"\S+@\S+\.\w+"), "<EMAIL>"),
    (
        re.compile(rf"[$€£]\s?{_AMOUNT}|\b{_AMOUNT}\s?(?:dollars|USD|EUR)\b"),
        "<MONEY>",
    ),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2})?\b"), "<DATE>"),
    (re.compile(rf"\b{_MONTH}\.? \d{{1,2}}(?:st|nd|rd|th)?(?:,? \d{{4}})?\b"), "<DATE>"),
    (re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH}\b(?: \d{{4}})?"), "<DATE>"),
    (re.compile(r"\b\d{1,2}(?::\d{2})? ?(?:[ap]m\b|[ap]\.m\.)|\b\d{1,2}:\d{2}\b", re.I), "<TIME>"),
    (re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*\b"), "<CODE>"),
    (re.compile(r"\b\d[\d,.\-]*\d%?|\b\d%?"), "<NUM>"),
)
_PROPER = re.compile(r"(?<![\w'<-])(?!I\b|I'[a-z]+\b)[A-Z][\w'-]*")
_RUNS = re.compile(r"<NAME>(?:[ ,]+<NAME>)+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'“(])")


def sentences(text: str) -> list[str]:
    """Sentences: split after . ! or ? where the next one starts with a capital or a quote."""
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def skeleton(sentence: str) -> str:
    """A sentence with its particulars replaced, so that two sentences that differ only in
    them share a skeleton: quoted text -> <QUOTE>, e-mails -> <EMAIL>, money ($12.50, 30
    dollars) -> <MONEY>, ISO and written dates -> <DATE>, clock times -> <TIME>, codes mixing
    letters and digits (ORD-123, LK321) -> <CODE>, other numbers -> <NUM>, and capitalised
    words other than the first word and "I" -> <NAME> (a run of them is one <NAME>)."""
    text = sentence
    for pattern, placeholder in _SKELETON_RULES:
        text = pattern.sub(placeholder, text)
    # the first word is capitalised as a sentence start, not as a name
    text = _PROPER.sub(lambda m: m.group(0) if m.start() == 0 else "<NAME>", text)
    return " ".join(_RUNS.sub("<NAME>", text).split())


def trigrams(text: str) -> frozenset[tuple[str, ...]]:
    words = re.findall(r"[\w'-]+", text.lower())
    return frozenset(zip(words, words[1:], words[2:], strict=False))


def overlapping(texts: list[str], share: float = OVERLAP) -> list[bool]:
    """For each text: does it share more than `share` of its own word 3-grams with some
    other text of the list? (|A & B| / |A| > share; an empty A shares nothing.)"""
    grams = [trigrams(t) for t in texts]
    best = [0.0] * len(texts)
    for i, j in combinations(range(len(texts)), 2):
        common = len(grams[i] & grams[j])
        if common:
            best[i] = max(best[i], common / len(grams[i]))
            best[j] = max(best[j], common / len(grams[j]))
    return [b > share for b in best]


def same_pairs(keys: list[str]) -> int:
    """Pairs of equal keys: a group of k equal keys is k(k-1)/2 pairs."""
    return sum(k * (k - 1) // 2 for k in Counter(keys).values())


def is_id(name: str) -> bool:
    """Ids are left out of "verbatim": a customer quotes the references they hold (order
    numbers, booking codes) and never sees the record ids the agent looks up."""
    return name == "id" or name.endswith(("_id", "_ids", "_code", "_number"))


def _values(value: Any, name: str = "") -> Iterator[str | int | float]:
    # an empty string (no address line 2) is nothing to spell out
    if is_id(name) or isinstance(value, bool) or value is None or value == "":
        return
    if isinstance(value, str | int | float):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _values(item, name)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _values(item, str(key))


def _spellings(value: str | int | float) -> set[str]:
    if isinstance(value, str):
        return {value, value.replace("_", " ")}
    if isinstance(value, int) or value.is_integer():
        n = int(value)
        return {str(n), f"{n:,}", f"{n}.00", f"{n:,}.00"}
    return {f"{value:g}", f"{value:.2f}", f"{value:,.2f}"}


def appears(value: str | int | float, text: str) -> bool:
    """`value` is in `text` on token boundaries, ignoring case ("75" is not in "LK175")."""
    return any(
        re.search(rf"(?<![\w.-]){re.escape(s)}(?![\w-]|[.,]\d)", text, re.IGNORECASE)
        for s in _spellings(value)
    )


@dataclass
class Facts:
    """What the figures are computed from, for one domain or the pooled set."""

    n: int = 0
    words: list[int] = field(default_factory=list)
    writes: list[int] = field(default_factory=list)
    single_write: int = 0
    two_write_tools: int = 0
    multi_intent: int = 0
    reason: int = 0
    verbatim: int = 0
    verbatim_of: int = 0
    skeletons: set[str] = field(default_factory=set)
    sentences: int = 0
    overlapping: int = 0
    identical_pairs: int = 0
    same_state_pairs: int = 0
    most_per_customer: int = 0
    challenge: int = 0
    alternative: int = 0
    worst_challenge_share: float | None = None
    families: set[str] = field(default_factory=set)
    urgencies: set[str] = field(default_factory=set)
    transfer_only: int = 0
    unchanged: int = 0
    reads: int = 0
    idle_reads: int = 0
    with_idle_read: int = 0
    pinnable: int = 0
    preferred: int = 0


def _records(
    codes: Mapping[str, str], customer: str, arguments: Mapping[str, Any], me: str
) -> set[str]:
    """The ids and codes a call names, lists and nested records included: the items an
    exchange takes, the flights a booking holds. Not the customer's own id `me` (every write
    takes it), under whatever parameter: a student who calls the school about their own
    fees is the customer, whether a call names them as the caller or as the student."""
    out: set[str] = set()
    for k, v in arguments.items():
        if k == customer:
            continue
        for item in v if isinstance(v, list) else [v]:
            if isinstance(item, dict):
                out |= _records(codes, customer, item, me)
            elif isinstance(item, str) and item != me and (is_entity_param(k) or k in codes):
                out.add(item)
    return out


def idle_reads(profile: Profile, task: Task, results: list[str]) -> tuple[int, int]:
    """(lookups of a named record, those nothing later in the gold needs): a lookup counts as
    needed when a later write, or the challenge's forbidden action, acts on the record it
    names or on one its result shows (the transaction a dispute is filed on). A booking
    looked up and never changed or refused is a lookup nothing scores. Identity lookups and
    searches name no record and never count. `results` holds each gold action's result."""
    kinds = profile.domain.tool_kinds
    codes, customer = profile.known_codes, profile.customer_param
    actions = list(task.gold_actions)
    forbidden = list(task.challenge.forbidden) if task.challenge else []
    looks = idle = 0
    for i, action in enumerate(actions):
        named = _records(codes, customer, action.arguments, task.user_id)
        if kinds.get(action.name) != "read" or not named:
            continue
        looks += 1
        acted: set[str] = set()
        for later in [*actions[i + 1 :], *forbidden]:
            if kinds.get(later.name) != "read":
                acted |= _records(codes, customer, later.arguments, task.user_id)
        idle += not (named & acted) and not any(f'"{v}"' in results[i] for v in acted)
    return looks, idle


def preferences(task: Task, kinds: Mapping[str, str], results: list[str]) -> tuple[int, int]:
    """(gold write values a lookup before them pins down by a preference, those the
    instruction names by it without the value): see the module's definitions."""
    pinnable = named = 0
    shown: list[Any] = []
    for action, result in zip(task.gold_actions, results, strict=False):
        if kinds.get(action.name) == "write":
            for value in action.arguments.values():
                if not isinstance(value, str):
                    continue
                kind = next((k for r in shown if (k := preference_of(value, r))), None)
                if kind is not None:
                    pinnable += 1
                    named += says(kind, task.instruction) and value not in task.instruction
        shown.append(parse_result(result))
    return pinnable, named


def _hashes(domain: Domain) -> dict[str, str]:
    path = domain.root / "tracer" / "hashes.json"
    try:
        hashes: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        sys.exit(f"{path}: cannot read the gold hashes ({exc})")
    return hashes


def domain_facts(domain: Domain, split: Split, tasks: list[Task]) -> Facts:
    kinds, hashes = domain.tool_kinds, _hashes(domain)
    profile = profile_for(domain)
    env = Environment(domain, domain.variant_for(split))
    pristine = Environment(domain, domain.variant_for(split)).hash()
    f = Facts(n=len(tasks))
    ends: list[str] = []
    for t in tasks:
        key = f"{split}/{t.id}"
        if key not in hashes:
            sys.exit(f"{domain.root / 'tracer' / 'hashes.json'} has no gold hash {key!r}")
        ends.append(hashes[key])
        writes = [a for a in t.gold_actions if kinds.get(a.name) == "write"]
        f.words.append(len(t.instruction.split()))
        f.writes.append(len(writes))
        f.single_write += len(writes) == 1
        f.two_write_tools += len({a.name for a in writes}) >= 2
        f.multi_intent += len(t.intents) > 1
        f.reason += REASON.search(t.instruction) is not None
        values = [v for a in writes for k, arg in a.arguments.items() for v in _values(arg, k)]
        if values:
            f.verbatim_of += 1
            f.verbatim += all(appears(v, t.instruction) for v in values)
        parts = sentences(t.instruction)
        f.sentences += len(parts)
        f.skeletons.update(skeleton(s) for s in parts)
        if t.challenge is not None:
            f.challenge += 1
            f.alternative += t.challenge.settles_for == "alternative"
            if t.emotion is not None:
                f.families.add(t.emotion.family)
                f.urgencies.add(t.emotion.urgency)
        terminal = any(kinds.get(a.name) == "terminal" for a in t.gold_actions)
        f.transfer_only += terminal and not writes and not t.required_outputs
        untouched = hashes[key] == pristine
        f.unchanged += untouched and t.challenge is None and not t.required_outputs
        messages, _ = replay_task(t, env)
        results = [m.content or "" for m in messages if m.role == "tool"]
        looks, idle = idle_reads(profile, t, results)
        pinnable, named = preferences(t, kinds, results)
        f.pinnable += pinnable
        f.preferred += named
        f.reads += looks
        f.idle_reads += idle
        f.with_idle_read += idle > 0
    f.overlapping = sum(overlapping([t.instruction for t in tasks]))
    f.identical_pairs = same_pairs([t.instruction for t in tasks])
    f.same_state_pairs = same_pairs(ends)
    f.most_per_customer = max(Counter(t.user_id for t in tasks).values(), default=0)
    f.worst_challenge_share = f.challenge / f.n if f.n else None
    return f


def pooled(parts: list[Facts]) -> Facts:
    total = Facts()
    for p in parts:
        for name in (
            "n", "single_write", "two_write_tools", "multi_intent", "reason", "verbatim",
            "verbatim_of", "sentences", "overlapping", "identical_pairs", "same_state_pairs",
            "challenge", "alternative", "transfer_only", "unchanged", "reads", "idle_reads",
            "with_idle_read", "pinnable", "preferred",
        ):  # fmt: skip
            setattr(total, name, getattr(total, name) + getattr(p, name))
        total.words += p.words
        total.writes += p.writes
        total.skeletons |= p.skeletons
        total.families |= p.families
        total.urgencies |= p.urgencies
        total.most_per_customer = max(total.most_per_customer, p.most_per_customer)
    shares = [p.worst_challenge_share for p in parts if p.worst_challenge_share is not None]
    total.worst_challenge_share = min(shares, default=None)
    return total


Value = Callable[[Facts], float | None]


def _share(k: Callable[[Facts], int], n: Callable[[Facts], int] = lambda f: f.n) -> Value:
    return lambda f: k(f) / n(f) if n(f) else None


VALUES: dict[str, Value] = {
    "tasks": lambda f: f.n,
    "words_median": lambda f: statistics.median(f.words) if f.words else None,
    "writes_mean": lambda f: statistics.fmean(f.writes) if f.writes else None,
    "single_write": _share(lambda f: f.single_write),
    "two_write_tools": _share(lambda f: f.two_write_tools),
    "multi_intent": _share(lambda f: f.multi_intent),
    "reason": _share(lambda f: f.reason),
    "verbatim": _share(lambda f: f.verbatim, lambda f: f.verbatim_of),
    "pinnable": lambda f: f.pinnable,
    "preferred": _share(lambda f: f.preferred, lambda f: f.pinnable),
    "skeletons": lambda f: len(f.skeletons),
    "overlapping": _share(lambda f: f.overlapping),
    "identical_pairs": lambda f: f.identical_pairs,
    "same_state_pairs": lambda f: f.same_state_pairs,
    "most_per_customer": lambda f: f.most_per_customer,
    "challenge": _share(lambda f: f.challenge),
    "alternative": _share(lambda f: f.alternative),
    "challenge_worst": lambda f: f.worst_challenge_share,
    "challenge_families": lambda f: len(f.families),
    "challenge_urgencies": lambda f: len(f.urgencies),
    "transfer_only": _share(lambda f: f.transfer_only),
    "unchanged": lambda f: f.unchanged,
    "idle_reads": _share(lambda f: f.idle_reads, lambda f: f.reads),
    "with_idle_read": _share(lambda f: f.with_idle_read),
}
"""Figure key -> its value on a domain or the pooled set (None: a share of nothing)."""


@dataclass(frozen=True)
class Figure:
    key: str
    label: str
    show: str = "share"  # share | mean | count | skeletons (shown as "a / b")
    target: tuple[str, float] | None = None  # (">=" or "<=", threshold)

    def value(self, facts: Facts) -> float | None:
        return VALUES[self.key](facts)

    def met(self, value: float | None) -> bool | None:
        if self.target is None or value is None:
            return None
        op, bound = self.target
        return value >= bound if op == ">=" else value <= bound

    def target_text(self) -> str:
        if self.target is None:
            return "-"
        op, bound = self.target
        return f"{op} {bound:.0%}" if self.show == "share" else f"{op} {bound:,g}"


FIGURES: tuple[Figure, ...] = (
    Figure("tasks", "Tracer tasks", "count"),
    Figure("words_median", "instruction words, median", "count"),
    Figure("writes_mean", "write actions per task, mean", "mean", (">=", 2.0)),
    Figure("single_write", "tasks with a single write"),
    Figure("two_write_tools", "two or more different write tools", target=(">=", 0.5)),
    Figure("multi_intent", "multi-intent tasks", target=(">=", 0.5)),
    Figure("reason", "instructions giving a reason", target=(">=", 0.6)),
    Figure("verbatim", "write values verbatim in instruction"),
    Figure("pinnable", "write values a lookup pins down by a preference", "count"),
    Figure("preferred", "of those, named by the preference"),
    Figure("skeletons", "distinct sentence skeletons / sentences", "skeletons", (">=", 1500)),
    Figure("overlapping", f"sharing > {OVERLAP:.0%} of 3-grams with another", target=("<=", 0.02)),
    Figure("identical_pairs", "identical instructions (pairs)", "count", ("<=", 0)),
    Figure("same_state_pairs", "same gold end state (pairs)", "count", ("<=", 0)),
    Figure("most_per_customer", "most tasks of one customer (worst domain)", "count", ("<=", 3)),
    Figure("challenge", "policy-challenge tasks"),
    Figure("alternative", "challenges settled by the policy's alternative"),
    Figure("challenge_worst", "policy-challenge share, worst domain", target=(">=", 0.2)),
    Figure(
        "challenge_families", "emotion families over challenges", "count", (">=", len(FAMILIES))
    ),
    Figure(
        "challenge_urgencies", "urgency levels over challenges", "count", (">=", len(URGENCIES))
    ),
    Figure("transfer_only", "transfer-only tasks", target=("<=", 0.03)),
    Figure("unchanged", "db unchanged, no challenge, no output", "count", ("<=", 0)),
    Figure("idle_reads", "gold lookups of a record no later write acts on (of all lookups)"),
    Figure("with_idle_read", "tasks holding such a lookup"),
)


def _cell(figure: Figure, facts: Facts) -> str:
    value = figure.value(facts)
    if value is None:
        return "-"
    if figure.show == "share":
        return f"{value:.1%}"
    if figure.show == "mean":
        return f"{value:.2f}"
    if figure.show == "skeletons":
        return f"{value:,.0f} / {facts.sentences:,}"
    return f"{value:,g}"


def table(split: str, columns: dict[str, Facts]) -> tuple[str, dict[str, Any]]:
    """The Markdown table of one split and its figures as data; verdicts on "overall"."""
    names = list(columns)
    lines = [
        f"## {split}",
        "",
        "| figure | " + " | ".join(names) + " | target | |",
        "|---" * (len(names) + 3) + "|",
    ]
    figures: dict[str, Any] = {}
    for fig in FIGURES:
        met = fig.met(fig.value(columns["overall"]))
        verdict = {None: "", True: "met", False: "**missed**"}[met]
        cells = " | ".join(_cell(fig, columns[n]) for n in names)
        lines.append(f"| {fig.label} | {cells} | {fig.target_text()} | {verdict} |")
        figures[fig.key] = {
            "values": {n: fig.value(columns[n]) for n in names},
            "target": fig.target_text() if fig.target else None,
            "met": met,
        }
    figures["sentences"] = {"values": {n: columns[n].sentences for n in names}}
    return "\n".join(lines), figures


def tracer_tasks(domain: Domain, split: Split, limit: int | None) -> list[Task]:
    tasks = [t for t in domain.tasks(split) if t.provenance.startswith("tracer")]
    return tasks[:limit] if limit is not None else tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=QUICK_RULE)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"The first given domain's first {QUICK_TASKS} test tasks.",
    )
    parser.add_argument(
        "--domains",
        type=domain_list,
        default="all",
        help="Domains to read: a name, a comma list or 'all'.",
    )
    parser.add_argument("--json", type=output_file, help="Also write the figures here.")
    parser.add_argument("--check", action="store_true", help="Exit 1 when a test target is missed.")
    args = parser.parse_args()
    domains: list[str] = args.domains
    if args.quick:
        domains = domains[:1]
    splits: tuple[Split, ...] = ("test",) if args.quick else ("test", "train")
    report: dict[str, Any] = {}
    missed: list[str] = []
    for split in splits:
        columns: dict[str, Facts] = {}
        for name in domains:
            domain = load_domain(name)
            tasks = tracer_tasks(domain, split, QUICK_TASKS if args.quick else None)
            columns[name] = domain_facts(domain, split, tasks)
        columns["overall"] = pooled(list(columns.values()))
        text, figures = table(split, columns)
        print(text + "\n")
        report[split] = figures
        if split == "test":
            missed = [k for k, v in figures.items() if v.get("met") is False]
    print("test targets missed: " + (", ".join(missed) if missed else "none"))
    if args.json is not None:
        write_output(args.json, json.dumps(report, indent=2) + "\n")
    sys.exit(1 if args.check and missed else 0)


if __name__ == "__main__":
    main()
