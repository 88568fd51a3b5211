"""The Tracer's modules form no import cycle, and each imports on its own.

A cycle hides while a test run happens to import its modules in a lucky order (the writer and
the ground stage once imported each other: `test_tracer_feel.py` failed alone and passed with
its folder). The static check reads every module-level import; the subprocess check imports
each stage module first thing in a fresh interpreter, which is how a cycle shows at run time.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import tau_emotion.tracer

TRACER = Path(tau_emotion.tracer.__file__).parent
STAGES = [
    "graph",
    "walks",
    "ground",
    "write",
    "feel",
    "feel.coverage",
    "validate",
    "select",
    "build",
    "ground.scene",
    "declaration",
]


def _module_name(path: Path) -> str:
    parts = ["tau_emotion", "tracer", *path.relative_to(TRACER).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _edges() -> dict[str, set[str]]:
    """Module -> the tracer modules it imports at module level. Importing `a.b.c` also runs
    `a.b`'s `__init__`, so each target's enclosing packages count as imported too."""
    modules = {_module_name(p): p for p in TRACER.rglob("*.py")}
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue  # TYPE_CHECKING blocks and function-level imports run later
            for target in targets:
                parts = target.split(".")
                for k in range(3, len(parts) + 1):
                    dep = ".".join(parts[:k])
                    if dep in modules and dep != name and not name.startswith(dep + "."):
                        edges[name].add(dep)
    return edges


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the path around it, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for dep in sorted(edges[node]):
            if state.get(dep) == 1:
                return [*path[path.index(dep) :], dep]
            if dep not in state and (found := visit(dep)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_no_import_cycle_in_tracer() -> None:
    assert _cycle(_edges()) is None


def test_cycle_finder_sees_a_cycle() -> None:
    # The finder itself must be able to fail: the old writer <-> ground shape is a cycle.
    edges = {
        "tau_emotion.tracer.write": {"tau_emotion.tracer.ground"},
        "tau_emotion.tracer.ground": {"tau_emotion.tracer.write"},
        "tau_emotion.tracer.values": set(),
    }
    found = _cycle(edges)
    assert found is not None and found[0] == found[-1]


def test_writer_does_not_reach_into_grounding() -> None:
    # The ground stage calls the writer, so the writer takes what both use (Choice, FREE_TEXT)
    # from `values`; importing any `ground.*` module would run `ground/__init__` again.
    edges = _edges()
    assert not {
        d for d in edges["tau_emotion.tracer.write"] if d.startswith("tau_emotion.tracer.ground")
    }
    assert "tau_emotion.tracer.write" in edges["tau_emotion.tracer.ground"]


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_imports_first(stage: str) -> None:
    module = f"tau_emotion.tracer.{stage}"
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
