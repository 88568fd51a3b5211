"""Every domain's judgement rules are listed, in a section of its own: the ten shipped domains'
in docs/policy-rules.md, a domain added since in its own folder (`<domain>/policy-rules.md`,
so adding a domain edits nothing outside its folder). No section names a rule its domain does
not have."""

from __future__ import annotations

import re
from pathlib import Path

from tau_emotion.domains import domain_names, load_domain

DOC = Path(__file__).parents[1] / "docs" / "policy-rules.md"
OWN = "policy-rules.md"
"""A domain's own section, in its folder: the `## <name>` heading and table of docs/policy-rules.md."""
ROW = re.compile(r"^\| ([a-z]+\.[a-z_]+) \|", re.M)


def _sections() -> dict[str, tuple[Path, str]]:
    """Each domain's section: where it is and its text."""
    text = DOC.read_text(encoding="utf-8")
    found: dict[str, tuple[Path, str]] = {}
    for name in domain_names():
        own = load_domain(name).root / OWN
        central = re.search(rf"^## {name}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        if own.exists():
            assert central is None, f"{name}'s rules are in both {DOC} and {own}: keep one"
            found[name] = (own, own.read_text(encoding="utf-8"))
        else:
            assert central is not None, (
                f"{name}: no list of its rules; write {own} with a `## {name}` heading and "
                f"the table of {DOC.name} (docs/domains.md, 'Policy checks')"
            )
            found[name] = (DOC, central.group(0))
    return found


def test_every_judged_rule_is_in_the_table_and_every_listed_rule_exists() -> None:
    for name, (path, text) in _sections().items():
        assert text.startswith(f"## {name}\n") or f"\n## {name}\n" in text, path
        listed = set(ROW.findall(text))
        checks = load_domain(name).checks
        judged = {c.rule_id for c in checks if c.judgement}
        missing = sorted(judged - listed)
        assert not missing, f"judged rules of {name} missing from {path}: {missing}"
        unknown = sorted(listed - {c.rule_id for c in checks})
        assert not unknown, f"{path} names rules {name} does not have: {unknown}"


def test_the_doc_holds_no_section_of_a_domain_that_is_not_there() -> None:
    headings = set(re.findall(r"^## (\w+)$", DOC.read_text(encoding="utf-8"), re.M))
    assert headings <= set(domain_names())
    listed = set(ROW.findall(DOC.read_text(encoding="utf-8")))
    assert {rule.split(".")[0] for rule in listed} <= set(domain_names())
