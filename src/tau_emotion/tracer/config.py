"""The settings of a Tracer build and of its walks: what `tracer build` and each stage
command default to.

Light on purpose (pydantic and the walk distributions, nothing of the stages), so that the
command line can show these defaults without importing the Tracer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tau_emotion.data import Split

if TYPE_CHECKING:
    from tau_emotion.tracer.profile import Profile

DEFAULT_INTENTS: Mapping[int, float] = {1: 0.45, 2: 0.35, 3: 0.2}
TEST_INTENTS: Mapping[int, float] = {1: 0.1, 2: 0.4, 3: 0.5}
"""The test pool is drawn richer: the benchmark measures whole conversations with several
things to do (the released τ-Emotion-Bench tasks hold 2.9 writes on average). The train pool
keeps the wider spread, and its later draws are longer anyway (repeated short sequences are
dropped)."""
DEFAULT_LENGTHS: Mapping[int, float] = {2: 0.15, 3: 0.3, 4: 0.3, 5: 0.15, 6: 0.1}

Count = Annotated[int, Field(ge=1)]
"""A number of intents or of tool calls: a walk has at least one of each."""
Weight = Annotated[float, Field(ge=0)]
"""A relative chance (normalised with the others of its table)."""


@dataclass(frozen=True)
class WalkConfig:
    """How many intents a task has and how long an intent is (weights, normalised)."""

    intents: Mapping[int, float] = field(default_factory=lambda: dict(DEFAULT_INTENTS))
    lengths: Mapping[int, float] = field(default_factory=lambda: dict(DEFAULT_LENGTHS))
    test_intents: Mapping[int, float] | None = None
    """Intents per task for the test pool; None draws it like the train pool."""


TRAIN_ONLY_NONE = "a train-only build of 0 train tasks builds nothing: ask for at least 1"
"""Why a train total of 0 is refused where train is the only split."""


class BuildConfig(BaseModel):
    """Everything a build depends on (stored as ``manifest.json`` in the output folder)."""

    model_config = ConfigDict(extra="forbid")

    domains: list[str] = Field(description="Domains to build.")
    splits: list[Split] = Field(default=["test", "train"], description="Splits to build.")
    seed: int = Field(default=7, description="Seed of every stage.")
    test_targets: dict[str, Annotated[int, Field(ge=1)]] = Field(
        default_factory=dict,
        description="Test tasks per domain (default: the domain's `TracerSpec.test_target`).",
    )
    # The counts below cannot be negative: a negative one used to slice or loop to nothing
    # and a build "succeeded" with no tasks. A train total of 0 is a build without train
    # tasks (its test split alone, with empty train files), so a train-only build of 0 is
    # refused; the others need at least one walk, test walk or worker to mean anything.
    train_total: int = Field(default=7600, ge=0, description="Train tasks over all domains.")
    walk_samples: int = Field(
        default=4000, ge=1, description="Walk samples per domain, first round."
    )
    test_walks: int = Field(default=1600, ge=1, description="Distinct walks reserved for test.")
    workers: int = Field(default=2, ge=1, description="Processes for grounding.")
    run_oracle: bool = Field(default=True, description="Validate with an oracle episode.")
    intents: dict[Count, Weight] = Field(default_factory=lambda: dict(DEFAULT_INTENTS))
    test_intents: dict[Count, Weight] = Field(
        default_factory=lambda: dict(TEST_INTENTS),
        description="Intents per task in the test pool (weights).",
    )
    lengths: dict[Count, Weight] = Field(default_factory=lambda: dict(DEFAULT_LENGTHS))

    @model_validator(mode="after")
    def _weights_draw_something(self) -> BuildConfig:
        # random.choices cannot draw from a table whose weights are all zero (or none).
        for name in ("intents", "test_intents", "lengths"):
            table: dict[int, float] = getattr(self, name)
            if sum(table.values()) <= 0:
                raise ValueError(f"{name} needs a weight above 0")
        if self.splits == ["train"] and self.train_total == 0:
            # It used to write empty train files and exit 0.
            raise ValueError(TRAIN_ONLY_NONE)
        return self

    def test_target(self, profile: Profile) -> int:
        return self.test_targets.get(profile.name, profile.spec.test_target)

    def test_walks_of(self, profile: Profile) -> int:
        """Distinct walks in the domain's test pool: its own `TracerSpec.test_walks`, else
        `test_walks`."""
        return profile.spec.test_walks or self.test_walks

    def first_samples(self, test_walks: int) -> int:
        """Walks the first round samples: enough for a test pool of `test_walks` to fill
        with distinct walks and leave a train pool."""
        return max(self.walk_samples, 2 * test_walks)

    def walk_config(self) -> WalkConfig:
        """How the walks are drawn: intents and lengths, and the test pool's intents."""
        return WalkConfig(
            intents=self.intents, lengths=self.lengths, test_intents=self.test_intents
        )
