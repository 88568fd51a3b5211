"""docs/policy-rules.md lists, per domain, every judgement rule the agent applies, and names
no rule a domain does not have."""

from __future__ import annotations

import re
from pathlib import Path

from tau_emotion.domains import domain_names, load_domain

DOC = Path(__file__).parents[1] / "docs" / "policy-rules.md"


def test_every_judged_rule_is_in_the_table_and_every_listed_rule_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| ([a-z]+\.[a-z_]+) \|", text, re.M))
    rules = {c.rule_id for n in domain_names() for c in load_domain(n).checks}
    judged = {c.rule_id for n in domain_names() for c in load_domain(n).checks if c.judgement}
    assert judged - listed == set(), "judged rules missing from docs/policy-rules.md"
    assert listed - rules == set(), "docs/policy-rules.md names rules no domain has"
    for name in domain_names():
        assert f"\n## {name}\n" in text
