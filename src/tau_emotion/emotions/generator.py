"""The deterministic anchor generator: phrase banks x sentence plans.

Each emotion has five banks (how it feels, an inner sentence, what you want, how it shows, and
a mood lexicon used with frames shared by all emotions); each dimension value has three (a verb
phrase, a whole sentence, and expressions used with frames shared by all values of that
dimension, so the cue, not the sentence shape, carries the label). A sentence plan decides
which slots appear and in which order. Plans, phrases, frames and expressions are split into a
training part and a held-out part, so the evaluation can test the classifier on sentence
shapes and phrasings it never saw (see `HELDOUT_PLANS` and `is_heldout_variant`), not just on
re-shuffled rows.

Everything is driven by `random.Random` seeded with a string: same seed, same anchors, on any
machine and Python version (string seeds go through SHA-512, not `hash()`).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_emotion.emotions.anchors import ASSETS, AnchorSet, anchor_problem, dedupe_key
from tau_emotion.emotions.defaults import DEFAULT_PER_CONDITION, DEFAULT_SEED
from tau_emotion.emotions.space import Condition, all_conditions

Split = Literal["all", "train", "heldout"]


# Slot names: e_* come from the emotion's banks, p_/u_/t_* from politeness/urgency/trust.
PLANS: Final[tuple[str, ...]] = (
    "You feel {e_feel}. {e_inner} {p_line} {u_line} {t_line} You want {e_want}.",
    "{e_inner} You {e_act}. You want {e_want}. {u_line} {t_line} {p_line}",
    "You feel {e_feel}, and you {e_act}. {t_line} {p_line} {u_line} You want {e_want}.",
    "{u_line} You feel {e_feel}. You {p_act}, and you {t_act}. What you want is {e_want}.",
    "You want {e_want}. {e_inner} You {e_act}, and you {u_act}. {p_line} {t_line}",
    "{p_line} You feel {e_feel}. {t_line} {e_inner} You {u_act}.",
    "At this point, you feel {e_feel}. You {t_act}. {u_line} You {e_act}. You {p_act}.",
    "{t_line} {e_inner} You {p_act}. {u_line} Above all, you want {e_want}.",
    # Held out: never used for training in the evaluation.
    "{e_inner} {u_line} You {p_act}, and you {t_act}. You want {e_want}.",
    "You {e_act}. Underneath it all, you feel {e_feel}. {p_line} {t_line} {u_line}",
)
HELDOUT_PLANS: Final[frozenset[int]] = frozenset({8, 9})


def is_heldout_variant(index: int) -> bool:
    """Every fourth phrase, frame and expression of every bank is held out (a quarter)."""
    return index % 4 == 3


class EmotionBank(BaseModel):
    """Phrase banks of one emotion."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    feel: tuple[str, ...]
    inner: tuple[str, ...]
    want: tuple[str, ...]
    act: tuple[str, ...]
    mood: tuple[str, ...]


class DimensionBank(BaseModel):
    """Phrase banks of one dimension value (e.g. urgency=high)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    act: tuple[str, ...]
    line: tuple[str, ...]
    expr: tuple[str, ...]


class EmotionFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    comment: str = Field(alias="_comment")
    frames: dict[str, tuple[str, ...]]
    emotions: dict[str, EmotionBank]


class DimensionFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    comment: str = Field(alias="_comment")
    frames: dict[str, tuple[str, ...]]
    values: dict[str, dict[str, DimensionBank]]


# A phrase and where it falls in the evaluation split: "train", "heldout", or "mixed" for a
# frame x expression combination whose two parts fall on different sides (used by neither).
Option = tuple[str, str]


def _side(index: int) -> str:
    return "heldout" if is_heldout_variant(index) else "train"


def _plain(phrases: tuple[str, ...]) -> list[Option]:
    return [(p, _side(i)) for i, p in enumerate(phrases)]


def _composed(frames: tuple[str, ...], exprs: tuple[str, ...]) -> list[Option]:
    out: list[Option] = []
    for i, frame in enumerate(frames):
        for j, expr in enumerate(exprs):
            side = _side(i) if _side(i) == _side(j) else "mixed"
            out.append((frame.format(x=expr), side))
    return out


@dataclass(frozen=True)
class PhraseBanks:
    emotions: EmotionFile
    dimensions: DimensionFile

    def slots(self, condition: Condition) -> dict[str, list[list[Option]]]:
        """Slot name -> sub-pools of options; a slot draws a sub-pool, then a phrase in it.

        Drawing the sub-pool first keeps the few hand-written whole sentences as likely as the
        many frame x expression combinations.
        """
        e = self.emotions.emotions[condition.emotion]
        mood = _composed(self.emotions.frames["mood"], e.mood)
        out: dict[str, list[list[Option]]] = {
            "e_feel": [_plain(e.feel)],
            "e_inner": [_plain(e.inner), mood],
            "e_want": [_plain(e.want)],
            "e_act": [_plain(e.act)],
        }
        for prefix, dim, value in (
            ("p", "politeness", condition.politeness),
            ("u", "urgency", condition.urgency),
            ("t", "trust", condition.trust),
        ):
            bank = self.dimensions.values[dim][value]
            out[f"{prefix}_act"] = [_plain(bank.act)]
            out[f"{prefix}_line"] = [
                _plain(bank.line),
                _composed(self.dimensions.frames[dim], bank.expr),
            ]
        return out


@cache
def phrase_banks() -> PhraseBanks:
    """The shipped phrase banks (validated once per process)."""
    emotions = EmotionFile.model_validate_json((ASSETS / "emotions.json").read_bytes())
    dimensions = DimensionFile.model_validate_json((ASSETS / "dimensions.json").read_bytes())
    return PhraseBanks(emotions=emotions, dimensions=dimensions)


def plan_slots(plan: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(plan) if name]


def _allowed_plans(split: Split) -> list[int]:
    if split == "all":
        return list(range(len(PLANS)))
    return [i for i in range(len(PLANS)) if (i in HELDOUT_PLANS) == (split == "heldout")]


def _sentence_case(text: str) -> str:
    return text[0].upper() + text[1:]


def generate_for_condition(
    condition: Condition,
    count: int,
    seed: int = DEFAULT_SEED,
    split: Split = "all",
    banks: PhraseBanks | None = None,
) -> list[str]:
    """`count` distinct anchors for one condition, deterministic in (seed, condition, split)."""
    banks = banks or phrase_banks()
    plans = _allowed_plans(split)
    pools = {
        name: [
            [text for text, side in pool if split == "all" or side == split] for pool in subpools
        ]
        for name, subpools in banks.slots(condition).items()
    }
    pools = {name: [pool for pool in subpools if pool] for name, subpools in pools.items()}
    rng = random.Random(f"tau-emotion/anchors/{seed}/{split}/{condition.id}")
    texts: list[str] = []
    seen: set[str] = set()
    # Walk the allowed plans in a shuffled cycle so each condition gets an even spread of
    # sentence orders rather than whatever the RNG happens to favour.
    order: list[int] = []
    attempts = 0
    while len(texts) < count:
        attempts += 1
        if attempts > count * 50:
            raise RuntimeError(f"cannot generate {count} distinct anchors for {condition.id}")
        if not order:
            order = plans[:]
            rng.shuffle(order)
        plan = PLANS[order.pop()]
        filled = {name: rng.choice(rng.choice(pools[name])) for name in plan_slots(plan)}
        text = _sentence_case(plan.format(**filled))
        key = dedupe_key(text)
        if key in seen:
            continue
        problem = anchor_problem(text)
        if problem is not None:
            # A bank phrase that breaks the rules is a bug in the data file; fail loudly.
            raise ValueError(f"generated anchor for {condition.id} {problem}: {text!r}")
        seen.add(key)
        texts.append(text)
    return texts


def generate_anchor_set(
    per_condition: int = DEFAULT_PER_CONDITION, seed: int = DEFAULT_SEED, split: Split = "all"
) -> AnchorSet:
    """Anchors for all 594 conditions (the shipped file is `split='all'`, seed 0, 16 each)."""
    banks = phrase_banks()
    anchors = {
        c.id: generate_for_condition(c, per_condition, seed=seed, split=split, banks=banks)
        for c in all_conditions()
    }
    suffix = "" if split == "all" else f":{split}"
    return AnchorSet(source=f"template:{seed}{suffix}", anchors=anchors)
