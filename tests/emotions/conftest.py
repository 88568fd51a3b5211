"""Fixtures of the emotions tests: training cut down to seconds, so the commands that train a
classifier on first use can be tested on two cores."""

from __future__ import annotations

from typing import Any

import pytest
from emotions_helpers import QUICK

from tau_emotion.emotions import training
from tau_emotion.emotions.anchors import AnchorSet
from tau_emotion.emotions.classifier import Artifact, TrainConfig


@pytest.fixture
def quick_training(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """`train_artifact` with `QUICK` whatever the caller asks; lists the embedders trained."""
    trained: list[str] = []
    real = training.train_artifact

    def quick(embedder: Any, anchor_set: AnchorSet, config: TrainConfig = QUICK) -> Artifact:
        trained.append(embedder.name)
        return real(embedder, anchor_set, QUICK)

    monkeypatch.setattr(training, "train_artifact", quick)
    return trained
