"""Policy violations: every domain's policy checks on every stored trajectory.

Rates are shares of episodes with at least one violation. Per domain x emotion family the
denominator is the episodes in that cell; per rule it is the episodes of the rule's domain.
Episodes of domains this installation does not know are counted as skipped, never guessed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from pydantic import BaseModel, Field

from tau_emotion.analysis.runs import EpisodeRow, episode_fields
from tau_emotion.analysis.stats import Rate, rate
from tau_emotion.data import Episode
from tau_emotion.domains.base import Domain
from tau_emotion.domains.checks import Violation, run_checks
from tau_emotion.evaluation.metrics import group_by

DomainFor = Callable[[str], Domain | None]


class EpisodeViolations(EpisodeRow):
    """The violations found in one episode."""

    violations: list[Violation] = Field(description="Broken rules, in order.")


class RuleStats(BaseModel):
    """How often one rule was broken."""

    rule_id: str = Field(description="Stable rule id, e.g. 'airline.confirm_before_write'.")
    description: str = Field(description="What the rule asks.")
    domain: str = Field(description="The rule's domain.")
    episodes: Rate = Field(description="Episodes of the domain breaking it at least once.")
    occurrences: int = Field(description="Violations in total (an episode may break it twice).")


class PolicyReport(BaseModel):
    """Violation rates per domain x emotion family and per rule."""

    episodes: list[EpisodeViolations] = Field(description="One per audited episode.")
    by_domain: dict[str, Rate] = Field(description="Episodes with a violation, per domain.")
    by_cell: dict[str, dict[str, Rate]] = Field(
        description="Domain -> emotion family -> episodes with a violation."
    )
    by_family: dict[str, Rate] = Field(description="Per emotion family, all domains.")
    by_rule: list[RuleStats] = Field(description="Per rule, most broken first.")
    skipped: int = Field(description="Episodes of unknown domains, not audited.")


def _known_domain(name: str) -> Domain | None:
    from tau_emotion.domains import domain_names, load_domain

    return load_domain(name) if name in domain_names() else None


def audit_episode(episode: Episode, domain: Domain) -> list[Violation]:
    trajectory = domain.trajectory(episode.messages, domain.variant_of_task(episode.task_id))
    return run_checks(domain.checks, trajectory)


def policy_analysis(
    episodes: Sequence[Episode], domain_for: DomainFor = _known_domain
) -> PolicyReport:
    domains: dict[str, Domain | None] = {}
    rows: list[EpisodeViolations] = []
    skipped = 0
    for e in episodes:
        if e.domain not in domains:
            domains[e.domain] = domain_for(e.domain)
        domain = domains[e.domain]
        if domain is None:
            skipped += 1
            continue
        rows.append(
            EpisodeViolations(
                **episode_fields(e),
                violations=audit_episode(e, domain),
            )
        )

    def share(group: Sequence[EpisodeViolations]) -> Rate:
        return rate(sum(bool(r.violations) for r in group), len(group))

    by_domain = group_by(rows, lambda r: r.domain)
    by_family = group_by(rows, lambda r: r.family)
    cells = {d: group_by(g, lambda r: r.family) for d, g in by_domain.items()}

    rules: list[RuleStats] = []
    for name, group in sorted(by_domain.items()):
        domain = domains[name]
        assert domain is not None  # only audited domains have rows
        hit = Counter(rule for r in group for rule in {v.rule_id for v in r.violations})
        total = Counter(v.rule_id for r in group for v in r.violations)
        for check in domain.checks:
            rules.append(
                RuleStats(
                    rule_id=check.rule_id,
                    description=check.description,
                    domain=name,
                    episodes=rate(hit[check.rule_id], len(group)),
                    occurrences=total[check.rule_id],
                )
            )
    rules.sort(key=lambda s: (-s.episodes.value, s.rule_id))
    return PolicyReport(
        episodes=rows,
        by_domain={d: share(g) for d, g in sorted(by_domain.items())},
        by_cell={
            d: {f: share(g) for f, g in sorted(fams.items())} for d, fams in sorted(cells.items())
        },
        by_family={f: share(g) for f, g in sorted(by_family.items())},
        by_rule=rules,
        skipped=skipped,
    )
