"""No import cycle in src/tau_emotion: a static scan of every module's imports.

A module depends on the module it names: ``from a.b import c`` on ``a.b.c`` when that is a
module, else on ``a.b``; a package's ``__init__`` re-exporting its submodules is no cycle by
itself. Imports under ``if TYPE_CHECKING:`` never run and do not count. Module-level imports
must form no cycle at all; imports deferred into a function (kept out of ``--help``'s path)
are scanned too, because a cycle closed by one is a cycle all the same, only later.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _module_names(root: Path, package: str) -> dict[str, Path]:
    names = {}
    for path in (root / package).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(body: list[ast.stmt], deferred: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run with `body` (and, if `deferred`, in its functions)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _imports(node.body, deferred)
            yield from _imports(node.orelse, deferred)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _imports(block, deferred)
        elif isinstance(node, ast.With | ast.ClassDef) or (
            deferred and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        ):
            yield from _imports(node.body, deferred)


def import_graph(root: Path, package: str, deferred: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = _module_names(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        deps: set[str] = set()
        for node in _imports(ast.parse(path.read_text()).body, deferred):
            if isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                anchor = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                deps.add(sub if sub in modules else base)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_no_module_level_import_cycle() -> None:
    found = cycles(import_graph(SRC, "tau_emotion"))
    assert not found, "module-level import cycles: " + "; ".join(
        " <-> ".join(sorted(c)) for c in found
    )


def test_no_cycle_through_a_deferred_import() -> None:
    found = cycles(import_graph(SRC, "tau_emotion", deferred=True))
    assert not found, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_scan_finds_cycles_and_ignores_what_never_runs(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import A\n",
            "pkg/a.py": "from pkg import b\nA = 1\n",
            "pkg/b.py": "from .a import A\n",
            "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import D\n",
            "pkg/d.py": "from pkg.c import *\nD = 1\n",
            "pkg/e.py": "def late():\n    from pkg.f import F\n",
            "pkg/f.py": "from pkg.e import late\nF = 1\n",
        },
    )
    assert cycles(import_graph(tmp_path, "pkg")) == [frozenset({"pkg.a", "pkg.b"})]
    deferred = set(cycles(import_graph(tmp_path, "pkg", deferred=True)))
    assert deferred == {frozenset({"pkg.a", "pkg.b"}), frozenset({"pkg.e", "pkg.f"})}
