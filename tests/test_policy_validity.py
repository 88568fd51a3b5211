"""The policy checks read consent, call results and identities as a reviewer would.

One test per defect of the policy-check audit: the consent rule (`is_affirmative`), what
opens a confirmation, a yes that confirms only the write the agent described, results paired
with their calls when ids repeat across turns, a second identity lookup, the policies'
one-yes-per-change sentence, and ids compared as the tools read them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from tau_emotion.data import Message, ToolCall
from tau_emotion.domains import Domain, domain_names, load_domain
from tau_emotion.domains.checks import confirmation_before_writes, hard_violations, run_checks
from tau_emotion.domains.consent import is_affirmative
from tau_emotion.domains.trajectory import Trajectory
from tau_emotion.environment import Environment
from tau_emotion.tracer.profile import load_profile

# -- 1. the consent rule ---------------------------------------------------------------------

AUDIT_TABLE = [
    ("Yes, go ahead.", True),
    ("Yes, no problem, go ahead.", True),
    ("Yes please, and don't forget to email me.", True),
    ("Alright, go for it.", True),
    ("I agree.", True),
    ("Yes. No more waiting, just do it.", True),
    ("Yes, cancel that one please.", True),
    ("Yes, I don't mind the cost, do it.", True),
    ("Of course, let's proceed.", True),
    ("Absolutely not.", False),
    ("Definitely not!", False),
    ("I'm not sure.", False),
    ("That's not correct.", False),
    ("I'm not okay with that.", False),
    ("Is that amount correct?", False),
    ("Hmm, I'm not sure that's right. What would it cost?", False),
    ("Never mind, leave it as it is.", False),
    ("Sure? I asked you a question first: what is the fee?", False),
]

MORE_REPLIES = [
    # yeses, some curt, angry or anxious
    ("yep, do it", True),
    ("Fine. Just get it done.", True),
    ("Ugh, FINE, go ahead.", True),
    ("Whatever, just do it already!", True),
    ("Okay okay, go ahead, I'm in a hurry.", True),
    ("Yes!! Finally. Please do.", True),
    ("Sure thing, thanks so much.", True),
    ("Yeah that's right, go ahead and cancel it.", True),
    ("I guess so... yes, go ahead.", True),
    ("Stop asking and just do it.", True),
    ("Don't worry about it, yes, please proceed.", True),
    ("Yes, and please don't mess it up this time.", True),
    ("Yes. I can't believe how long this took.", True),
    ("Agreed. Go ahead with the refund.", True),
    ("Yes please, I'm terrified this won't work but go ahead.", True),
    ("Go for it, no worries.", True),
    ("YES. DO IT. NOW.", True),
    ("Sure, go ahead \u2013 no rush.", True),
    ("All right, please go ahead.", True),
    ("Yes, go ahead. Can you make sure that's right?", True),
    ("Yes\u2019s fine\uff0c go ahead", True),
    # refusals, hesitations and questions
    ("No.", False),
    ("Nope, not doing that.", False),
    ("Hell no!", False),
    ("Wait, what? How much is that?", False),
    ("Hold on, let me check with my husband first.", False),
    ("Not yet, I need to think.", False),
    ("Stop. Don't touch my account.", False),
    ("Don't you dare charge me for that.", False),
    ("I don't think so.", False),
    ("Ok but wait, which card is that going on?", False),
    ("Sure, if you want to rip me off again?", False),
    ("Are you sure that's the right amount?", False),
    ("I never agreed to any fee.", False),
    ("Absolutely not, that's ridiculous.", False),
    ("I'm not fine with that at all.", False),
    ("Can you go ahead? Actually no, wait.", False),
    ("Yes... no. No, hold on.", False),
    ("Okay? I don't understand what you're asking.", False),
    ("Before you go ahead, tell me the fee.", False),
    ("I'm scared, I don't want to lose my money. Please don't.", False),
    ("Ugh, no. Just no.", False),
    ("Nah, leave it.", False),
    ("Go ahead\uff1f", False),
    ("", False),
]


@pytest.mark.parametrize(("reply", "yes"), AUDIT_TABLE + MORE_REPLIES)
def test_consent_reads_negation_questions_and_refusals(reply: str, yes: bool) -> None:
    assert is_affirmative(reply) is yes


def test_the_scripted_users_yes_and_no_still_read_as_before() -> None:
    from tau_emotion.simulation.users import phrases as P

    for yes in P.YES.values():
        assert is_affirmative(f"{yes} {P.DOUBLE_CHECK['cautious']}")
    for no in P.REFUSE.values():
        assert not is_affirmative(no)


# A real bank conversation run through the tools: lookup, verification, the transactions,
# the agent's question, the customer's reply, the dispute (from the policy-check audit).
BANK = "bank"
LOOKUP = ("find_customer_by_phone", {"phone": "503-555-2909"})
VERIFY = (
    "verify_identity",
    {"customer_id": "CU-60184", "date_of_birth": "1962-09-25", "ssn_last4": "5419"},
)
READ = ("get_account_transactions", {"customer_id": "CU-60184", "account_id": "ACC-60288"})
DISPUTE = (
    "file_dispute",
    {"customer_id": "CU-60184", "txn_id": "TXN-601675", "reason": "wrong_amount"},
)
ASK = "I'll file a wrong-amount dispute on the Metro Transit charge TXN-601675 of $22.29."


@pytest.fixture(scope="module")
def bank() -> Domain:
    return load_domain(BANK)


def _bank_episode(
    bank: Domain, steps: Sequence[tuple[str, Any]], ids: str | None = None
) -> list[Message]:
    """steps: ('agent'|'user', text) or ('call', (name, args)); each call runs on the tools.
    `ids` gives every call that id (a backend that numbers calls per response)."""
    env = Environment(bank, bank.variant_of_task("bank-w00003"))
    messages = [Message(role="user", content="Hi, I need help with a charge.")]
    for n, (kind, what) in enumerate(steps):
        if kind == "call":
            name, args = what
            call = ToolCall(id=ids or f"c{n}", name=name, arguments=dict(args))
            messages += [Message(role="assistant", tool_calls=[call]), env.execute(call)]
        else:
            role = "assistant" if kind == "agent" else "user"
            messages.append(Message(role=role, content=str(what)))
    return messages


def _hard(bank: Domain, messages: list[Message]) -> list[str]:
    variant = bank.variant_of_task("bank-w00003")
    return hard_violations(bank.checks, bank.trajectory(messages, variant))


AUTH = [("call", LOOKUP), ("call", VERIFY), ("call", READ)]


@pytest.mark.parametrize(("reply", "yes"), AUDIT_TABLE)
def test_the_audits_bank_conversation(bank: Domain, reply: str, yes: bool) -> None:
    steps = [*AUTH, ("agent", f"{ASK} Shall I proceed?"), ("user", reply), ("call", DISPUTE)]
    expected = [] if yes else ["bank.confirm_before_write"]
    assert _hard(bank, _bank_episode(bank, steps)) == expected


# -- 3. a confirmation asked without a question mark ------------------------------------------


@pytest.mark.parametrize(
    "ask",
    [
        f"{ASK} Please reply yes to confirm.",
        f"{ASK} Please confirm and I will file it.",
        f"{ASK} Let me know if you would like me to go ahead.",
        f"{ASK} Would you like me to file it now.",
        f"{ASK} Shall I proceed\uff1f",
        f"{ASK} Do you want me to go ahead.",
    ],
)
def test_a_confirmation_asked_in_words_opens_one(bank: Domain, ask: str) -> None:
    steps = [*AUTH, ("agent", ask), ("user", "Yes."), ("call", DISPUTE)]
    assert _hard(bank, _bank_episode(bank, steps)) == []


def test_a_stated_offer_still_opens_no_confirmation(bank: Domain) -> None:
    steps = [*AUTH, ("agent", f"What I can do instead is this: {ASK}"), ("user", "Yes.")]
    steps.append(("call", DISPUTE))
    assert _hard(bank, _bank_episode(bank, steps)) == ["bank.confirm_before_write"]


# -- 2. a yes confirms only the write the agent described --------------------------------------


def test_a_yes_to_anything_else_confirms_no_undescribed_write(bank: Domain) -> None:
    steps = [
        *AUTH,
        ("agent", "Is there anything else I can help you with?"),
        ("user", "Yes, the Metro Transit one is wrong too, sort it out."),
        ("call", DISPUTE),
    ]
    assert _hard(bank, _bank_episode(bank, steps)) == ["bank.confirm_before_write"]
    asked = [*AUTH, ("agent", "Can you confirm your phone number?"), ("user", "Yes, it is.")]
    asked.append(("call", DISPUTE))
    assert _hard(bank, _bank_episode(bank, asked)) == ["bank.confirm_before_write"]


@pytest.mark.parametrize(
    "ask",
    [
        "Shall I open a dispute for the wrong amount?",  # the tool's word ("dispute")
        "I'll challenge the charge TXN-601675 with the bank. OK?",  # a code it names
        "I'll challenge that wrong amount charge for you. OK?",  # "wrong_amount" as words
    ],
)
def test_a_yes_confirms_a_write_the_agent_named(bank: Domain, ask: str) -> None:
    steps = [*AUTH, ("agent", ask), ("user", "Yes please."), ("call", DISPUTE)]
    assert _hard(bank, _bank_episode(bank, steps)) == []


def test_the_description_comes_before_the_yes(bank: Domain) -> None:
    steps = [
        *AUTH,
        ("agent", "Anything else today?"),
        ("user", "Yes, go ahead."),
        ("agent", f"{ASK} Filing it now."),  # a statement after the yes opens nothing new
        ("call", DISPUTE),
    ]
    assert _hard(bank, _bank_episode(bank, steps)) == ["bank.confirm_before_write"]


# -- 4. results paired with their calls by the conversation's order ----------------------------


def test_repeated_call_ids_change_nothing(bank: Domain) -> None:
    compliant = [*AUTH, ("agent", f"{ASK} Shall I proceed?"), ("user", "Yes, go ahead.")]
    compliant.append(("call", DISPUTE))
    assert _hard(bank, _bank_episode(bank, compliant, ids="call_0")) == []
    # no yes at all, and a last call the tools refuse: the refused result must not be
    # handed to every call
    refused = ("call", ("get_customer_overview", {"customer_id": "CU-00000"}))
    unconfirmed = [*AUTH, ("call", DISPUTE), refused]
    assert _hard(bank, _bank_episode(bank, unconfirmed)) == ["bank.confirm_before_write"]
    assert _hard(bank, _bank_episode(bank, unconfirmed, ids="call_0")) == [
        "bank.confirm_before_write"
    ]


def test_results_pair_by_id_within_a_turn_and_by_order_without_ids(toy: Domain) -> None:
    calls = [
        ToolCall(id="a", name="find_customer", arguments={"email": "ana@example.com"}),
        ToolCall(id="b", name="add_credit", arguments={"customer_id": "c1", "amount": 5}),
    ]
    out_of_order = [
        Message(role="assistant", tool_calls=calls),
        Message(role="tool", tool_call_id="b", content="15.0"),
        Message(role="tool", tool_call_id="a", content='{"customer_id": "c1"}'),
    ]
    records = Trajectory(out_of_order, toy.tool_kinds).calls
    assert [r.result for r in records] == ['{"customer_id": "c1"}', "15.0"]
    same = [c.model_copy(update={"id": "call_0"}) for c in calls]
    by_order = [
        Message(role="assistant", tool_calls=same),
        Message(role="tool", tool_call_id="call_0", content="first"),
        Message(role="tool", tool_call_id="call_0", content="second", error=True),
    ]
    records = Trajectory(by_order, toy.tool_kinds).calls
    assert [(r.result, r.ok) for r in records] == [("first", True), ("second", False)]


# -- 5. one identity per conversation, in every domain -----------------------------------------


def _lookups(name: str, found: list[str]) -> list[Message]:
    """Identity lookups that each return one of `found`, as the domain's own lookups do: its
    first identity tool (`TracerSpec.auth_tools`, else its find_* reads), answering with the
    id field its seed tasks show that tool returning (`user_id`, `member_id`, ...)."""
    profile = load_profile(name)
    domain = profile.domain
    auth = sorted(profile.auth_tools)[0]
    field = profile.customer_param
    messages: list[Message] = []
    for n, person in enumerate(found):
        call = ToolCall(id=f"l{n}", name=auth, arguments={"email": "x@example.com"})
        messages.append(Message(role="assistant", tool_calls=[call]))
        content = json.dumps({field: person})
        messages.append(Message(role="tool", tool_call_id=call.id, content=content))
    assert domain.tool_kinds[auth] == "read"
    return messages


@pytest.mark.parametrize("name", domain_names())
def test_a_second_lookup_of_another_customer_is_one_hard_violation(name: str) -> None:
    domain = load_domain(name)
    # No write is made, so the judged rules (which replay writes) have nothing to say.
    checks = [c for c in domain.checks if c.judgement is None]
    second = Trajectory(_lookups(name, ["P-1", "P-2"]), domain.tool_kinds)
    broken = [v for v in run_checks(checks, second) if v.message_index == 2]
    assert len(broken) == 1, broken  # reported once, by one rule
    assert broken[0].rule_id in {c.rule_id for c in checks if c.hard}
    again = Trajectory(_lookups(name, ["P-1", "P-1"]), domain.tool_kinds)
    assert hard_violations(checks, again) == []


# -- 6. the policies say that one yes covers one change ----------------------------------------


@pytest.mark.parametrize("name", domain_names())
def test_every_policy_says_one_yes_covers_one_change(name: str) -> None:
    policy = " ".join(load_domain(name).policy.split()).replace('"', "").lower()
    assert "yes covers one" in policy, (
        f"{name}/policy.md must state the consent rule in the words 'yes covers one' "
        "(e.g. 'One yes covers one change'; docs/domains.md, 'Contract checklist')"
    )


# -- 7. ids compared as the tools read them ----------------------------------------------------


def test_airline_ids_with_surrounding_whitespace_are_the_same_user() -> None:
    airline = load_domain("airline")
    checks = [c for c in airline.checks if c.judgement is None]  # no write to judge
    lookup = ToolCall(id="1", name="find_user_by_email", arguments={"email": "a@example.com"})
    read = ToolCall(id="2", name="get_user_details", arguments={"user_id": " ana_1 "})
    messages = [
        Message(role="assistant", tool_calls=[lookup]),
        Message(role="tool", tool_call_id="1", content='{"user_id": "ana_1"}'),
        Message(role="assistant", tool_calls=[read]),
        Message(role="tool", tool_call_id="2", content='{"user_id": "ana_1"}'),
    ]
    assert hard_violations(checks, Trajectory(messages, airline.tool_kinds)) == []
    other = read.model_copy(update={"arguments": {"user_id": "bo_2"}})
    messages[2] = Message(role="assistant", tool_calls=[other])
    assert "airline.act_for_authenticated_user" in hard_violations(
        checks, Trajectory(messages, airline.tool_kinds)
    )


def test_please_confirm_opens_a_confirmation_of_a_described_write(toy: Domain) -> None:
    messages = [
        Message(role="assistant", content="I will add 5 credit. Please confirm."),
        Message(role="user", content="Confirmed."),
        Message(
            role="assistant",
            tool_calls=[ToolCall(id="1", name="add_credit", arguments={"amount": 5})],
        ),
        Message(role="tool", tool_call_id="1", content="15.0"),
    ]
    assert confirmation_before_writes("r").run(Trajectory(messages, toy.tool_kinds)) == []
