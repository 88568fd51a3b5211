"""The emotion space, its anchor descriptions, and the text -> condition mapper.

Importing this package is cheap: it loads no data and calls no model. Data files and the
embedder load on first use.
"""

from tau_emotion.emotions.space import (
    EMOTIONS,
    FAMILIES,
    FAMILY_OF,
    HEADS,
    POLITENESS,
    TRUST,
    URGENCY,
    Condition,
    Emotion,
    Family,
    all_conditions,
    condition_by_id,
    to_emotion_spec,
)

__all__ = [
    "EMOTIONS",
    "FAMILIES",
    "FAMILY_OF",
    "HEADS",
    "POLITENESS",
    "TRUST",
    "URGENCY",
    "Condition",
    "Emotion",
    "Family",
    "all_conditions",
    "condition_by_id",
    "to_emotion_spec",
]
