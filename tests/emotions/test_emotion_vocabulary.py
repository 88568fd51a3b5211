"""The emotion space is the only place emotion and family names are spelled."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tau_emotion.emotions.llm_anchors import EMOTION_GLOSS
from tau_emotion.emotions.space import EMOTIONS, FAMILIES, FAMILY_OF, Emotion, Family
from tau_emotion.simulation.users import phrases
from tau_emotion.simulation.users.scripted import _FAMILY_PATIENCE
from tau_emotion.tracer.feel.cues import EMOTION_PHRASES, KIND_EMOTIONS

SRC = Path(__file__).resolve().parents[2] / "src" / "tau_emotion"

MODULES = (
    "emotions/llm_anchors.py",
    "simulation/users/phrases.py",
    "simulation/users/scripted.py",
    "tracer/feel/cues.py",
    "cli/tasks.py",
    "cli/main.py",
)
"""Files that once spelled the names themselves (tables keyed by emotion or family)."""


def test_the_enums_are_the_space_in_canonical_order() -> None:
    assert tuple(e.value for e in Emotion) == EMOTIONS
    assert tuple(FAMILIES) == tuple(f.value for f in Family)
    assert all(type(e) is str for e in EMOTIONS)  # plain strings: no member repr leaks out
    assert set(FAMILY_OF.values()) == set(Family)


@pytest.mark.parametrize(
    "table",
    [EMOTION_GLOSS, phrases.FEELING, EMOTION_PHRASES],
    ids=["anchor glosses", "scripted feelings", "tracer cues"],
)
def test_every_emotion_table_covers_the_space(table: dict[str, object]) -> None:
    assert sorted(table) == sorted(Emotion)


@pytest.mark.parametrize(
    "table", [phrases.NEED_REASSURANCE, _FAMILY_PATIENCE], ids=["reassurance", "patience"]
)
def test_every_family_table_covers_the_space(table: dict[str, object]) -> None:
    assert sorted(table) == sorted(Family)


def test_request_kinds_name_only_emotions_of_the_space() -> None:
    named = {e for group in KIND_EMOTIONS.values() for e in group}
    assert named <= set(Emotion)


def _string_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


@pytest.mark.parametrize("module", MODULES)
def test_no_table_spells_an_emotion_or_family_name(module: str) -> None:
    names = set(EMOTIONS) | set(FAMILIES)
    spelled = [(line, text) for line, text in _string_literals(SRC / module) if text in names]
    assert not spelled, f"{module} spells {spelled}; use tau_emotion.emotions.space.Emotion/Family"
