"""The dependency direction docs/architecture.md gives `analysis` and `evaluation`.

`evaluation` scores an episode inside the episode loop, so it stays light: it imports the
data records and the emotion space's names (the heads it breaks results down by, the neutral
label), and nothing of ours that reads files, calls models or runs episodes. `analysis`
reads stored runs after the fact: it may use evaluation, the space, the domains' checks, the
model protocol and the result files, and must never run an episode or depend on what renders
it. Every import counts, those inside functions too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tau_emotion

SRC = Path(tau_emotion.__file__).parent


def _imports(package: str) -> dict[str, set[str]]:
    """Module file -> the tau_emotion modules it imports (anywhere in the file)."""
    found: dict[str, set[str]] = {}
    for path in sorted((SRC / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        found[str(path.relative_to(SRC))] = {n for n in names if n.startswith("tau_emotion.")}
    return found


def _breaches(package: str, allowed: set[str]) -> list[str]:
    """Imports of tau_emotion packages outside `allowed` (and the package itself)."""
    out = []
    for module, names in _imports(package).items():
        for name in sorted(names):
            top = name.split(".")[1]
            if top != package and name not in allowed and top not in allowed:
                out.append(f"{module} imports {name}")
    return out


SPACE = "tau_emotion.emotions.space"
"""Constants and pure functions over `data` only (the simulated users import it too). The
module, not the package: the mapper and its embedders are what would be heavy."""


def test_evaluation_stays_light() -> None:
    assert _breaches("evaluation", {"data", SPACE}) == []


def test_the_space_stays_light() -> None:
    # What makes the allowance above safe: the space imports nothing but the data records.
    assert _imports("emotions")["emotions/space.py"] == {"tau_emotion.data"}


def test_analysis_reads_stored_runs_and_runs_nothing() -> None:
    allowed = {
        "data",
        "errors",
        "evaluation",
        "domains",
        SPACE,
        "tau_emotion.models.base",
        "tau_emotion.runner.results",
        # The acknowledgment phrases the scripted customer listens for: data, written once.
        "tau_emotion.simulation.users.acknowledgment",
    }
    assert _breaches("analysis", allowed) == []


def test_the_check_sees_a_breach() -> None:
    # analysis itself imports the runner's result files: without that allowance it is flagged.
    breaches = _breaches("analysis", {"data", "errors", "evaluation", "domains", "models"})
    assert any("tau_emotion.runner.results" in b for b in breaches)


def test_nothing_below_analysis_imports_it() -> None:
    # Only what reads stored runs after the fact (report, training's collections) uses it.
    for package in ("data.py", "evaluation", "simulation", "runner", "environment", "tracer"):
        if package.endswith(".py"):
            text = (SRC / package).read_text(encoding="utf-8")
            assert "tau_emotion.analysis" not in text
            continue
        for module, names in _imports(package).items():
            assert not any(n.startswith("tau_emotion.analysis") for n in names), module
