"""The layers docs/architecture.md draws are the imports the code makes.

The page's first table lists the packages top to bottom; a package may import the ones above
it and those in its own row listed before it, never one below. Every import counts, those
deferred into a function and those under ``TYPE_CHECKING`` too (an annotation names a
dependency all the same); the exceptions the page documents are listed here, by module, so a
new one needs an edit to the page and to this test.
"""

from __future__ import annotations

import ast
import re
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "tau_emotion"
PAGE = ROOT / "docs" / "architecture.md"

EXCEPTIONS: dict[str, tuple[str, ...]] = {
    # Domains declare for the Tracer (declaration types only).
    "domains/*/tracer_profile.py": ("tracer.declaration", "tracer.ground.scene"),
    "domains/base.py": ("tracer.declaration",),
    # Sub-apps share the command line's plumbing.
    "emotions/cli.py": ("cli.generated",),
    "training/cli.py": ("cli.common", "cli.generated", "cli.options", "cli.errors", "cli.tables"),
}


def layer_rows(text: str) -> list[list[str]]:
    """The packages of each row of the page's layer table, top row first."""
    section = text.split("## The layers", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None, "the layer table is the first text block under '## The layers'"
    rows = []
    for line in block.group(1).splitlines():
        names = line.split("  ")[0]  # the description follows after a run of spaces
        rows.append(re.findall(r"[a-z_]+(?= |,|$)", names.split("(")[0]))
    return [r for r in rows if r]


def imports(path: Path) -> list[str]:
    """Every tau_emotion module `path` imports, as 'package.module' without the root."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return [n.removeprefix("tau_emotion.") for n in names if n.startswith("tau_emotion.")]


def breaches(src: Path, rows: list[list[str]], exceptions: dict[str, tuple[str, ...]]) -> list[str]:
    order = {name: (row, col) for row, names in enumerate(rows) for col, name in enumerate(names)}
    found = []
    for path in sorted(src.rglob("*.py")):
        module = path.relative_to(src).as_posix()
        own = module.split("/")[0].removesuffix(".py")
        if own == "__init__":
            continue
        allowed = [t for pattern, ts in exceptions.items() if fnmatch(module, pattern) for t in ts]
        for name in imports(path):
            target = name.split(".")[0]
            if target == own or any(name == a or name.startswith(a + ".") for a in allowed):
                continue
            if order[target] >= order[own]:
                found.append(f"{module} imports tau_emotion.{name}")
    return found


def test_every_package_has_a_row() -> None:
    listed = {name for row in layer_rows(PAGE.read_text(encoding="utf-8")) for name in row}
    packages = {
        p.name.removesuffix(".py")
        for p in SRC.iterdir()
        if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())
    } - {"__init__"}
    assert packages == listed


def test_no_import_goes_up_the_layers() -> None:
    rows = layer_rows(PAGE.read_text(encoding="utf-8"))
    assert breaches(SRC, rows, EXCEPTIONS) == []


def test_the_documented_exceptions_are_still_needed() -> None:
    # An exception the code no longer uses should leave the page (and this list).
    rows = layer_rows(PAGE.read_text(encoding="utf-8"))
    for pattern in EXCEPTIONS:
        others = {p: ts for p, ts in EXCEPTIONS.items() if p != pattern}
        assert breaches(SRC, rows, others), f"{pattern}: no longer imports from below"


def test_the_check_sees_a_breach(tmp_path: Path) -> None:
    (tmp_path / "low").mkdir()
    (tmp_path / "low" / "a.py").write_text("def late():\n    from tau_emotion.high import b\n")
    (tmp_path / "high.py").write_text("from tau_emotion.low.a import late\n")
    assert breaches(tmp_path, [["low"], ["high"]], {}) == ["low/a.py imports tau_emotion.high"]
