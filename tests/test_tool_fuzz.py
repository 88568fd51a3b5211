"""Every tool of every domain, fuzzed: success with a valid state, or a refusal; nothing else.

CI runs a short deterministic sweep. The long one (>= 2,000 calls per domain):

    TAU_FUZZ_CALLS_PER_DOMAIN=2000 .venv/bin/pytest tests/test_tool_fuzz.py -s
"""

from __future__ import annotations

import math
import os

import pytest

from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.tools import MAX_AMOUNT, MAX_COUNT, ToolSet, tool
from tau_emotion.errors import ToolError
from tool_fuzzing import fuzz_domain

CALLS_PER_DOMAIN = int(os.environ.get("TAU_FUZZ_CALLS_PER_DOMAIN", "80"))


@pytest.mark.parametrize("name", domain_names())
def test_no_tool_raises_anything_but_a_refusal(name: str) -> None:
    tally = fuzz_domain(load_domain(name), CALLS_PER_DOMAIN)
    print(
        f"\nfuzz {name}: {tally.calls} calls, {tally.successes} succeeded, "
        f"{tally.refusals} refused, {len(tally.failures)} uncaught"
    )
    assert tally.calls >= CALLS_PER_DOMAIN
    assert tally.successes > 0, "no fuzzed call succeeded: the fuzzer never reached the tools"
    assert not tally.failures, "\n\n".join(tally.failures[:5])


class _Counter(ToolSet):
    @tool("write")
    def pay(self, amount: float, count: int = 1, note: str = "") -> str:
        """Pay an amount.

        Args:
            amount: Dollars.
            count: How many times.
            note: Free text.
        """
        return f"{amount} x {count}"


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"amount": math.nan}, "amount: must be a finite number"),
        ({"amount": "Infinity"}, "amount: must be a finite number"),
        ({"amount": float("1e999")}, "amount: must be a finite number"),
        ({"amount": MAX_AMOUNT * 10}, "amount: must be between"),
        ({"amount": 1.0, "count": MAX_COUNT + 1}, "count: must be between"),
        ({"amount": 1.0, "note": "a\ud800"}, "note: is not valid Unicode text"),
    ],
)
def test_the_boundary_refuses_unfit_values(arguments: dict[str, object], problem: str) -> None:
    tools = _Counter(state=None)  # type: ignore[arg-type]
    with pytest.raises(ToolError, match=f"invalid arguments for pay: {problem}"):
        tools.invoke("pay", arguments)


def test_the_boundary_keeps_fit_values_and_schemas() -> None:
    tools = _Counter(state=None)  # type: ignore[arg-type]
    assert tools.invoke("pay", {"amount": MAX_AMOUNT, "count": -MAX_COUNT}) == (
        f"{MAX_AMOUNT} x {-MAX_COUNT}"
    )
    amount = _Counter.specs["pay"].schema["parameters"]["properties"]["amount"]
    assert amount == {"description": "Dollars.", "type": "number"}
