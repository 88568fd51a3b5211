"""Numeric helpers shared by the two halves of the classifier (numpy only)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def softmax(z: NDArray[np.float64]) -> NDArray[np.float64]:
    """Row-wise softmax, shifted by the row maximum so exp never overflows."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
    return out
