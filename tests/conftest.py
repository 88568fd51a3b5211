from __future__ import annotations

from pathlib import Path

import pytest

from tau_emotion.domains import Domain
from tau_emotion.environment import Environment

from toy_domain import make_domain


@pytest.fixture
def toy(tmp_path: Path) -> Domain:
    return make_domain(tmp_path / "toy")


@pytest.fixture
def toy_env(toy: Domain) -> Environment:
    return Environment(toy, "main")
