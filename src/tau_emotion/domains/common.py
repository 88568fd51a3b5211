"""Building blocks that several domains share: deterministic ids, cent-exact money, the
hand-off record of `transfer_to_human_agents`, small helpers for tools (identity-lookup
normalisers, record views) and for generators (unique draws, people pools).

Everything here is pure and deterministic: the gold replay of a task and an agent making the
same calls must reach the same state hash, and a generator run twice must write the same
bytes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Protocol, Self, TypeVar

from pydantic import AfterValidator, BaseModel, Field, PlainSerializer

from tau_emotion.domains.state import Record
from tau_emotion.errors import ToolError

H = TypeVar("H", bound=Hashable)
R = TypeVar("R", bound=BaseModel)

# -- ids -----------------------------------------------------------------------------------


def make_id(prefix: str, number: int, width: int = 4) -> str:
    """'PREFIX' + the number zero-padded to `width` digits (no padding for width 0)."""
    return f"{prefix}{number:0{width}d}"


def next_id(keys: Iterable[str], prefix: str, width: int = 4, *, floor: int = 0) -> str:
    """One past the highest number in use after `prefix` (at least ``floor + 1``).

    Deriving the id from the state, not from a counter or the clock, is what lets the gold
    replay and an agent making the same calls create the same ids and so the same hash.
    Split databases put their own lead digit in `prefix`, so new ids stay inside that
    database's id space. Keys whose rest is not a number are someone else's and are skipped.
    `keys` is usually a table (iterating a table yields its keys).
    """
    highest, start = floor, len(prefix)
    # A hot loop (every created record scans its table): slice only the keys that match.
    for key in keys:
        if key.startswith(prefix):
            rest = key[start:]
            if rest.isdigit() and int(rest) > highest:
                highest = int(rest)
    return make_id(prefix, highest + 1, width)


# -- money ---------------------------------------------------------------------------------

CENT = Decimal("0.01")


def money(value: Decimal | int | str | float) -> Decimal:
    """An amount rounded to the cent, half up as a till does; floats go through `str` so
    that 0.1 stays 0.10 rather than 0.1000000000000000055."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def whole_cents(value: Decimal | float) -> Decimal | None:
    """An amount an agent gave, as money, if it is a whole number of cents; None if it holds a
    fraction of a cent. Tools refuse such an amount rather than round it: rounding would move a
    different amount from the one the customer agreed to."""
    amount = Decimal(str(value))
    return money(amount) if amount == money(amount) else None


def fmt(amount: Decimal | float) -> str:
    """Two decimals, the way tools show an amount and tasks list it as an output: '245.50'."""
    return f"{amount:.2f}"


def money_text(value: Decimal | int | str) -> str:
    """Round to the cent, then write it with two decimals."""
    return fmt(money(value))


Money = Annotated[Decimal, AfterValidator(money), PlainSerializer(fmt, return_type=str)]
"""A cent-exact amount, written as a string ('245.50'): sums stay exact, and the state hash
never depends on how a float happens to print. The money type of every domain: tools show
amounts through views, each domain in its own way (`docs/domains.md`)."""


class StoredValue(Protocol):
    """A payment method that may hold a balance (a gift card, travel credit)."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def balance(self) -> Decimal | None: ...
    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


V = TypeVar("V", bound=StoredValue)


def add_to_balance(
    methods: tuple[V, ...], method_id: str, kind: str, amount: Decimal
) -> tuple[V, ...]:
    """`methods` with `amount` (negative to take a payment) added to the balance of method
    `method_id` if it is of the stored-value `kind`; a card keeps no balance, so it is left
    as it is."""
    return tuple(
        m.model_copy(update={"balance": money((m.balance or 0) + amount)})
        if m.id == method_id and m.kind == kind
        else m
        for m in methods
    )


# -- hand-offs -----------------------------------------------------------------------------


class HandOff(Record):
    """Base of a record that `transfer_to_human_agents` writes; subclasses add the id field.

    The summary is free text in the agent's own words. It is kept on the record for readers
    of the episode but excluded from serialisation, so that it stays out of the snapshot and
    the state hash: a transfer is graded by its existence, not by its wording.
    """

    summary: str = Field(default="", exclude=True)


class Transfer(HandOff):
    """A hand-off to a human agent, keyed by `id`."""

    id: str


# -- tool helpers --------------------------------------------------------------------------

_NOT_A_DIGIT = re.compile(r"\D")


def digits(text: str) -> str:
    """The decimal digits of a phone number, whatever punctuation the customer adds."""
    return _NOT_A_DIGIT.sub("", text)


def phone_digits(text: str) -> str:
    """The ten digits of a US phone number, dropping a leading country code 1."""
    found = digits(text)
    return found[1:] if len(found) == 11 and found.startswith("1") else found


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def calendar_date(text: str) -> date:
    """A date an agent wrote as YYYY-MM-DD, or a refusal that says what is wrong with it."""
    if not _ISO_DATE.fullmatch(text):
        raise ToolError(f"date {text!r} must be written YYYY-MM-DD")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"{text!r} is not a calendar date") from None


def words(text: str) -> str:
    """Lower case with single spaces: 'Dana  Ruiz ' and 'dana ruiz' name the same person."""
    return " ".join(text.lower().split())


def require(table: Mapping[str, R], key: str, refusal: str) -> R:
    """The row under `key`, or a refusal that tells the agent what it named does not exist."""
    record = table.get(key)
    if record is None:
        raise ToolError(refusal)
    return record


def record_view(record: BaseModel, **extra: Any) -> dict[str, Any]:
    """A record as a tool shows it: its JSON form (amounts as '120.00', dates as text) plus
    derived facts the agent should not have to work out."""
    data: dict[str, Any] = record.model_dump(mode="json")
    data.update(extra)
    return data


# -- generators ----------------------------------------------------------------------------


def unique(used: set[H], draw: Callable[[], H]) -> H:
    """Call `draw` until it gives a value not in `used`, record it and return it.

    Generators use it for emails, phones and card digits. Only membership is asked of the
    set, so its iteration order can never reach a snapshot.
    """
    while True:
        value = draw()
        if value not in used:
            used.add(value)
            return value


def unique_email(
    rng: random.Random, used: set[str], first: str, last: str, domains: Sequence[str]
) -> str:
    """'first.last<1-99>@<domain>' in lower case, not yet in `used` (then recorded there)."""
    return unique(used, lambda: f"{first}.{last}{rng.randint(1, 99)}@{rng.choice(domains)}".lower())


@dataclass(frozen=True)
class PeoplePools:
    """What one database of a split domain draws its people from. Giving each database its
    own family names, zip codes, phone area codes and email domains keeps every personal
    identifier out of the other database."""

    last_names: tuple[str, ...]
    zip_codes: tuple[str, ...]
    area_codes: tuple[str, ...]
    email_domains: tuple[str, ...]
