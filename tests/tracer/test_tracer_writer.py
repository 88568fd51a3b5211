"""Stage 3b: the customer's side is written from the gold calls, in the customer's words."""

from __future__ import annotations

import re

import pytest

from tau_emotion.domains import domain_names, load_domain
from tau_emotion.tracer.profile import load_profile
from tau_emotion.tracer.values import Vocabulary, describe, humanize, observe
from tau_emotion.tracer.write.clause import slot
from tau_emotion.tracer.write.outputs import outputs_of


@pytest.mark.parametrize("name", domain_names())
def test_every_write_has_a_phrase_whose_slots_are_its_parameters(name: str) -> None:
    profile = load_profile(name)
    phrases = profile.spec.phrases
    for tool, spec in profile.domain.toolset.specs.items():
        if spec.kind != "write":
            continue
        assert tool in phrases, f"{name}.{tool} has no phrase"
        params = spec.schema["parameters"]["properties"]
        allowed = {"entity"} | {slot(p, profile.known_codes) for p in params}
        for template in phrases[tool]:
            assert set(re.findall(r"\{(\w+)\}", template)) <= allowed, (tool, template)


def test_ids_are_described_the_way_the_customer_knows_them() -> None:
    card = {"id": "card-1038", "kind": "credit_card", "label": "American Express ending 1038"}
    assert describe(card, "card-1038") == "American Express ending 1038"
    showing = {"showtime_id": "SH-1", "movie": "Harbor Lights", "starts_at": "2025-06-18T16:00"}
    # "movie" names a thing only where a domain declares it (`TracerSpec.name_keys`).
    names = Vocabulary.extended({}, load_domain("movie").tracer.name_keys).names
    assert describe(showing, "SH-1", names=names) == "Harbor Lights on 2025-06-18 at 16:00"
    assert describe(showing, "SH-1") == "on 2025-06-18 at 16:00"
    line = {"line_id": "L2001", "phone_number": "512-555-1674", "plan": "Plus 15GB"}
    assert describe(line, "L2001").startswith("number 512-555-1674")
    assert humanize("stolen_device") == "stolen device"


def test_outputs_are_the_money_the_write_moved() -> None:
    assert outputs_of('{"reservation_code": "X", "total_refund": 230}') == (
        ["230"],
        "how much is refunded",
    )
    record = {f"k{i}": i for i in range(12)} | {"amount_paid": "5327.50"}
    assert outputs_of(str(record).replace("'", '"'))[0] == []
    assert outputs_of("Transfer created.") == ([], "")


def test_output_keys_fill_parameters_by_name() -> None:
    data = {
        "user_id": "u1",
        "payment_methods": [{"id": "card-1", "label": "Visa ending 1"}],
        "reservations": ["ABC123"],
    }
    obs = observe(data, 0, "user")
    param_matches = Vocabulary.extended({}, ()).param_matches
    assert any(param_matches("payment_method_id", o) and o.value == "card-1" for o in obs)
    assert any(param_matches("reservation_code", o) and o.value == "ABC123" for o in obs)
    assert not any(param_matches("reservation_code", o) and o.value == "card-1" for o in obs)


def test_a_transfer_reason_is_told_to_the_customer_in_the_second_person() -> None:
    from tau_emotion.tracer.write.clause import second_person

    assert second_person("I was prescribed it and my stomach hurts, so I'd like a nurse") == (
        "you were prescribed it and your stomach hurts, so you'd like a nurse"
    )
    assert second_person("we're away and our bags are gone") == "we're away and our bags are gone"


def test_every_domain_declares_transfer_reasons_its_policy_names() -> None:
    from tau_emotion.domains import domain_names, load_domain

    for name in domain_names():
        reasons = load_domain(name).tracer.transfer_reasons
        assert len(reasons) >= 3, f"{name}: {len(reasons)} transfer_reasons, at least 3 wanted"
        policy = " ".join(load_domain(name).policy.split())
        assert all(" ".join(r.policy.split()) in policy for r in reasons)
