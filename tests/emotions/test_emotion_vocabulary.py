"""The emotion space is the only place emotion and family names, the heads and the neutral
label are spelled; `data` (beside `EmotionSpec`) the only place the dimensions' values are."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from tau_emotion import data
from tau_emotion.data import EmotionSpec
from tau_emotion.emotions import space
from tau_emotion.emotions.llm_anchors import EMOTION_GLOSS
from tau_emotion.emotions.space import (
    EMOTIONS,
    FAMILIES,
    FAMILY_OF,
    HEADS,
    NEUTRAL,
    Emotion,
    Family,
)
from tau_emotion.evaluation.metrics import BREAKDOWNS
from tau_emotion.report.fmt import FAMILY_ORDER, families
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
    "tracer/feel/__init__.py",
    "report/fmt.py",
)
"""Files that once spelled the names themselves (tables keyed by emotion or family)."""

NEUTRAL_MODULES = (
    "evaluation/metrics.py",
    "runner/tasks.py",
    "report/fmt.py",
    "api.py",
    "analysis/runs.py",
    "analysis/empathy.py",
    "cli/tasks.py",
    "cli/tables.py",
    "report/sections_analyses.py",
)
"""Files that once spelled the neutral label themselves."""


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


@pytest.mark.parametrize("module", NEUTRAL_MODULES)
def test_no_module_spells_the_neutral_label(module: str) -> None:
    spelled = [(line, text) for line, text in _string_literals(SRC / module) if text == NEUTRAL]
    assert not spelled, f"{module} spells {spelled}; use tau_emotion.emotions.space.NEUTRAL"


@pytest.mark.parametrize("module", ["evaluation/metrics.py", "api.py"])
def test_the_breakdowns_spell_no_head_name(module: str) -> None:
    spelled = [(line, text) for line, text in _string_literals(SRC / module) if text in HEADS]
    assert not spelled, f"{module} spells {spelled}; use tau_emotion.emotions.space.HEADS"


def test_the_neutral_label_is_imported_from_the_space_only() -> None:
    # A re-export (analysis.runs, report.fmt once held one) is a second place to look for it.
    elsewhere = sorted(
        f"{path.relative_to(SRC)}: from {node.module}"
        for path in SRC.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom)
        and node.module != "tau_emotion.emotions.space"
        and any(alias.name == "NEUTRAL" for alias in node.names)
    )
    assert not elsewhere, f"NEUTRAL imported from a re-export: {elsewhere}"


def test_neutral_is_no_label_of_the_space() -> None:
    # A neutral customer must not be mistaken for a condition on any head.
    assert all(NEUTRAL not in labels for labels in space.HEAD_LABELS.values())


def test_the_breakdowns_and_the_family_order_are_the_space() -> None:
    assert BREAKDOWNS == HEADS == tuple(space.HEAD_LABELS)
    assert set(HEADS) <= set(EmotionSpec.model_fields)  # the metrics read each head off a spec
    assert tuple(FAMILIES) == FAMILY_ORDER and all(type(f) is str for f in FAMILY_ORDER)
    assert families({NEUTRAL, "zeal", *reversed(FAMILY_ORDER)}) == [*FAMILY_ORDER, "zeal", NEUTRAL]


@pytest.mark.parametrize(
    ("field", "alias", "values"),
    [
        ("politeness", data.Politeness, space.POLITENESS),
        ("urgency", data.Urgency, space.URGENCY),
        ("trust", data.Trust, space.TRUST),
    ],
)
def test_one_spelling_of_each_dimension(field: str, alias: object, values: tuple[str, ...]) -> None:
    assert get_type_hints(EmotionSpec)[field] is alias  # the field is declared with the alias
    assert get_args(alias) == values == space.HEAD_LABELS[field]
