"""An `EmotionSpec` for a condition named by its five labels, for tests that need a customer
of a given family and dimensions without going through the mapper."""

from __future__ import annotations

from tau_emotion.data import EmotionSpec


def condition_spec(
    family: str,
    name: str,
    politeness: str,
    urgency: str,
    trust: str,
    instruction: str = "You feel it.",
) -> EmotionSpec:
    return EmotionSpec(
        condition_id=f"{family}.{name}.{politeness}.{urgency}.{trust}",
        family=family,
        emotion=name,
        politeness=politeness,  # type: ignore[arg-type]
        urgency=urgency,  # type: ignore[arg-type]
        trust=trust,  # type: ignore[arg-type]
        instruction=instruction,
    )
