"""Small statistics shared by the analyses: Wilson rates and bootstrap means."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import sqrt
from statistics import fmean
from typing import Protocol

import numpy as np
from pydantic import BaseModel, Field

from tau_emotion.evaluation.metrics import Estimate

BOOTSTRAP_SAMPLES = 2000
_Z95 = 1.959963984540054


class Rate(BaseModel):
    """A proportion with its denominator and a 95% Wilson interval."""

    count: int = Field(description="Numerator.")
    total: int = Field(description="Denominator; 0 means the rate is undefined.")
    value: float = Field(description="count / total (0 when total is 0).")
    low: float = Field(description="Lower end of the 95% Wilson interval.")
    high: float = Field(description="Upper end of the 95% Wilson interval.")


def rate(count: int, total: int) -> Rate:
    """count / total with a Wilson interval, which stays inside [0, 1] for small samples."""
    if total <= 0:
        return Rate(count=count, total=0, value=0.0, low=0.0, high=0.0)
    p = count / total
    denom = 1 + _Z95**2 / total
    centre = (p + _Z95**2 / (2 * total)) / denom
    half = _Z95 * sqrt(p * (1 - p) / total + _Z95**2 / (4 * total**2)) / denom
    # At 0 of n (n of n) the bound is exactly 0 (1); the formula leaves float noise there.
    low = 0.0 if count == 0 else max(0.0, centre - half)
    high = 1.0 if count == total else min(1.0, centre + half)
    return Rate(count=count, total=total, value=p, low=low, high=high)


class Scored(Protocol):
    """A per-episode row that knows whether its episode succeeded (reward 1)."""

    @property
    def success(self) -> bool: ...


def success_rate(rows: Sequence[Scored]) -> Rate:
    """Share of the rows whose episode succeeded: what the analyses compare across groups."""
    return rate(sum(r.success for r in rows), len(rows))


def bootstrap_mean(
    values: Sequence[float], seed: int = 0, samples: int = BOOTSTRAP_SAMPLES
) -> Estimate:
    """Mean with a percentile bootstrap 95% interval (resampling the given units).

    For paired data pass the per-pair differences: resampling them resamples whole pairs,
    which is what makes the interval a paired one.
    """
    if not values:
        raise ValueError("bootstrap_mean needs at least one value")
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(data), size=(samples, len(data)))
    boot = data[idx].mean(axis=1)
    return Estimate(
        value=float(data.mean()),
        low=float(np.percentile(boot, 2.5)),
        high=float(np.percentile(boot, 97.5)),
        n=len(data),
    )


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean; 0.0 for no values (callers show the denominator next to it)."""
    return float(sum(values) / len(values)) if values else 0.0


def mean_or_none(values: Iterable[float]) -> float | None:
    """Mean of the values; None for none (a figure shown without its denominator, unlike
    0.0, cannot be misread as "none of them")."""
    items = list(values)
    return fmean(items) if items else None
