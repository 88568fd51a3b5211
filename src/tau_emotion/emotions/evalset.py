"""The independent evaluation set: texts written apart from the anchors, never trained on.

It lives in the repository's `benchmarks/emotion_eval/` (see its README for provenance), not in
the package: it is a measuring stick for the mapper, and nothing that trains may read it. Two
files in the written format (`written.py`): `descriptions.txt`, second-person descriptions
like the anchors, and `messages.txt`, first-person customer messages. Lines marked ``~ `` are
negation or contrast cases ("not in a hurry at all"), reported separately as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tau_emotion.emotions.written import WrittenText, parse_written

DESCRIPTIONS: Final[str] = "descriptions.txt"
MESSAGES: Final[str] = "messages.txt"
# The source checkout's copy; an installed package has none and needs --eval-set.
REPO_EVAL_DIR: Final[Path] = Path(__file__).resolve().parents[3] / "benchmarks" / "emotion_eval"


class EvalSetError(ValueError):
    """The evaluation set is missing or damaged; names the folder or file."""


@dataclass(frozen=True)
class EvalSet:
    descriptions: list[WrittenText]
    messages: list[WrittenText]

    @property
    def negations(self) -> list[WrittenText]:
        return [t for t in self.descriptions + self.messages if t.negation]

    def parts(self) -> dict[str, list[WrittenText]]:
        """The reported subsets, by name, in report order."""
        return {
            "descriptions": self.descriptions,
            "messages": self.messages,
            "negation and contrast": self.negations,
        }


def default_eval_dir() -> Path | None:
    """The evaluation set of the source checkout, when there is one."""
    return REPO_EVAL_DIR if (REPO_EVAL_DIR / DESCRIPTIONS).is_file() else None


def load_eval_set(folder: Path) -> EvalSet:
    """Read both files of an evaluation folder; raises `EvalSetError` naming what is wrong."""
    files = {name: folder / name for name in (DESCRIPTIONS, MESSAGES)}
    missing = [str(path) for path in files.values() if not path.is_file()]
    if missing:
        raise EvalSetError(f"evaluation set incomplete: no {', '.join(missing)}")
    try:
        return EvalSet(parse_written(files[DESCRIPTIONS]), parse_written(files[MESSAGES]))
    except ValueError as exc:
        raise EvalSetError(str(exc)) from None
