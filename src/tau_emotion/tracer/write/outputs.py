"""What the agent must tell the customer after a write: the amount a result reports.

A write's result that names money moved (a refund, a fee, a fare difference) gives the task
a required output, and the words the customer asks for it with ("how much is refunded").
"""

from __future__ import annotations

import re

from tau_emotion.tracer.values import parse_result

# Result keys that hold what the customer wants to hear, best first.
_OUTPUT_KEYS = (
    "total_refund",
    "refund_amount",
    "refunded",
    "refund",
    "credit_amount",
    "credit",
    "waived_amount",
    "payout",
    "fare_difference",
    "price_difference",
    "amount_paid",
    "charged",
    "total_charged",
    "patient_pays",
    "deposit_refund",
    "deposit",
    "prorated_charge",
    "amount",
    "total",
    "price",
)
_MOVED = (
    "total_refund",
    "refund_amount",
    "refunded",
    "credit_amount",
    "waived_amount",
    "payout",
    "fare_difference",
    "price_difference",
    "charged",
    "total_charged",
    "prorated_charge",
    "fee_charged",
)
_OUTPUT_WORDS = {
    "refund": "how much is refunded",
    "credit": "how much credit you get",
    "waived": "how much is waived",
    "payout": "how much the claim pays out",
    "difference": "the price difference",
    "paid": "how much is paid",
    "charge": "how much is charged",
    "pays": "how much you pay",
    "deposit": "the deposit",
    "amount": "the amount",
    "total": "the total",
    "price": "the price",
}


def outputs_of(result: str) -> tuple[list[str], str]:
    """What the agent must tell the customer after a write, and how to ask for it. From a
    whole record (a booking echoed back) only money that moved counts, not its totals."""
    data = parse_result(result)
    if not isinstance(data, dict):
        return [], ""
    keys = _OUTPUT_KEYS if len(data) <= 8 else _MOVED
    for key in keys:
        value = data.get(key)
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float) or (
            isinstance(value, str) and re.fullmatch(r"-?\d+(\.\d+)?", value)
        ):
            words = next((w for k, w in _OUTPUT_WORDS.items() if k in key), "the amount")
            return [str(value).lstrip("-")], words
    return [], ""
