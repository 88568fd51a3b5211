"""What the Tracer needs to know about the telecom domain beyond its code and data."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.domains.telecom.checks import AUTH_TOOLS
from tau_emotion.tracer.declaration import (
    TracerSpec,
    load_phrases,
    load_reasons,
    load_transfer_reasons,
)

# How customers ask for each action (see `Phrase`): data, in tracer/phrases.json.
PHRASES = load_phrases(Path(__file__).parent / "tracer" / "phrases.json")
# What the policy sends to a human, as customers put it: data, in tracer/transfers.json.
TRANSFER_REASONS = load_transfer_reasons(Path(__file__).parent / "tracer" / "transfers.json")
# Why a customer wants each write, in their words: data, in tracer/reasons.json.
REASONS = load_reasons(Path(__file__).parent / "tracer" / "reasons.json")

TRACER = TracerSpec(
    auth_tools=AUTH_TOOLS,
    public_tables=frozenset(["addons", "plans"]),
    phrases=PHRASES,
    transfer_reasons=TRANSFER_REASONS,
    reasons=REASONS,
    test_target=70,
)
