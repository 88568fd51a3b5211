"""Small anchor sets a mapper accepts, and the training settings that fit them (for the
`quick_training` fixture of this folder's conftest)."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.emotions.anchors import AnchorSet, default_anchor_set, write_anchor_set
from tau_emotion.emotions.classifier import TrainConfig

# A mapper needs anchors for every condition (it may choose any of the 594), so the small
# sets keep one anchor per condition instead of dropping conditions.
QUICK = TrainConfig(epochs=10, hidden=16, augment=0, lexical_epochs=5)


def covering_anchor_set(per_condition: int = 1, skip: int = 0) -> AnchorSet:
    """The shipped anchors cut to `per_condition` a condition (from the `skip`-th on)."""
    full = default_anchor_set().anchors
    return AnchorSet(
        source="test",
        anchors={cid: texts[skip : skip + per_condition] for cid, texts in full.items()},
    )


def write_covering_anchors(folder: Path, per_condition: int = 1, skip: int = 0) -> Path:
    path = folder / f"covering-{per_condition}-{skip}.json.gz"
    write_anchor_set(covering_anchor_set(per_condition, skip), path)
    return path
