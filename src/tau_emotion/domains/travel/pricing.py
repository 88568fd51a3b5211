"""Prices, refunds and insurance payouts: pure functions shared by the tools and the generator.

They check a rule and return numbers or changed copies, or raise `ToolError` with the reason
the agent will read.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from tau_emotion.domains.common import money
from tau_emotion.domains.kit.accounts_stored_value import Payment, StoredValueRule
from tau_emotion.domains.travel import rules
from tau_emotion.domains.travel.db import (
    Booking,
    Customer,
    Departure,
    Hotel,
    InsurancePolicy,
    Package,
    RoomType,
    Traveller,
)
from tau_emotion.errors import ToolError


def room(hotel: Hotel, code: str) -> RoomType:
    found = next((r for r in hotel.room_types if r.code == code), None)
    if found is None:
        codes = ", ".join(r.code for r in hotel.room_types)
        raise ToolError(f"{hotel.name} has no room type {code!r}; its room types: {codes}")
    return found


def price_travellers(
    departure: Departure, fare: str, people: Sequence[tuple[str, str]], code: str
) -> tuple[Traveller, ...]:
    """Travellers with ids and prices, sorted by name so that their order is not graded."""
    ordered = sorted((rules.clean_name(name), birth) for name, birth in people)
    return tuple(
        Traveller(
            id=f"{code}-{i + 1}",
            full_name=name,
            date_of_birth=birth,
            price=rules.traveller_price(departure.base_price, fare, birth, departure.start_date),
        )
        for i, (name, birth) in enumerate(ordered)
    )


def package_price(
    travellers: Sequence[Traveller], room_type: RoomType, rooms: int, nights: int
) -> Decimal:
    supplements = room_type.supplement_per_night * nights * rooms
    return money(sum((t.price for t in travellers), Decimal(0)) + supplements)


def check_party(package: Package, departure: Departure, people: Sequence[tuple[str, str]]) -> None:
    if not 1 <= len(people) <= rules.MAX_TRAVELLERS:
        raise ToolError(
            f"a booking holds 1 to {rules.MAX_TRAVELLERS} travellers; larger groups go to the "
            "groups desk"
        )
    for name, birth in people:
        try:
            age = rules.age_on(birth, departure.start_date)
        except ValueError:
            raise ToolError(f"date of birth {birth!r} of {name} must be YYYY-MM-DD") from None
        if age < 0:
            raise ToolError(f"{name} is not born by the departure date")
        if package.adults_only and age < rules.ADULT_AGE:
            raise ToolError(f"{package.name} is adults only (18+); {name} would be {age}")


def cancellation(booking: Booking, departure: Departure, on_days: int) -> tuple[Decimal, Decimal]:
    """(refund, money lost) for cancelling with `on_days` days left before departure.

    The package price is refunded by the fare's share; tours come back in full (they have not
    happened); change fees and insurance premiums are never refunded.
    """
    share = rules.refund_share(booking.fare, on_days)
    package_back = money(booking.package_price * share)
    tours = sum((t.total for t in booking.tours), Decimal(0)) if on_days >= 1 else Decimal(0)
    refund = money(min(package_back + tours, booking.amount_paid - booking.amount_refunded))
    return refund, money(booking.package_price - package_back)


def lost_on_cancellation(booking: Booking, departure: Departure) -> Decimal:
    """Package money a cancelled booking did not get back: what trip-cancellation cover pays."""
    cancelled = rules.parse_date((booking.cancelled_at or rules.stamp(rules.NOW))[:10])
    left = (rules.parse_date(departure.start_date) - cancelled).days
    return cancellation(booking, departure, left)[1]


def claim_window_start(booking: Booking, departure: Departure, claim_type: str) -> str:
    """The day a claim's 30-day window opens: the cancellation for trip_cancellation (empty
    when the booking is not cancelled), else the trip's end."""
    if claim_type == "trip_cancellation":
        return (booking.cancelled_at or "")[:10]
    return departure.end_date


TRAVEL_CREDIT = StoredValueRule(
    kind="travel_credit",
    unknown="payment method {id!r} is not on this customer's profile",
    short="travel credit has {balance:.2f} left, less than {amount:.2f}; use a credit card",
)
"""Travel credit must cover a payment in full and takes refunds back; cards are unlimited."""

charge: Payment[Customer] = TRAVEL_CREDIT.charge
"""Take a payment: travel credit must cover it in full; credit cards are not limited."""
credit: Payment[Customer] = TRAVEL_CREDIT.credit
"""Pay money back: travel credit gets its balance back; a card needs no change here."""


def payout(
    policy: InsurancePolicy,
    booking: Booking,
    departure: Departure,
    claim_type: str,
    incident_date: str,
    amount: Decimal,
    lost: Decimal,
) -> Decimal:
    """Check a claim against the insurance plan's cover; return what it pays. When claims may
    be filed, and how many, is the policy's (see `claim_window_start` and travel/checks.py)."""
    cover = rules.COVER[policy.plan]
    if claim_type not in cover:
        covered = ", ".join(cover)
        raise ToolError(f"the {policy.plan} plan does not cover {claim_type}; it covers {covered}")
    if amount <= 0:
        raise ToolError("the amount claimed must be positive")
    if claim_type == "trip_cancellation":
        if (
            booking.status != "cancelled"
            or booking.cancel_reason not in rules.COVERED_CANCEL_REASONS
        ):
            raise ToolError(
                "trip cancellation cover applies only to a booking cancelled for illness or "
                "bereavement"
            )
        if incident_date != claim_window_start(booking, departure, claim_type):
            raise ToolError("for trip_cancellation the incident date is the cancellation date")
        limit = lost
    else:
        if booking.status == "cancelled":
            raise ToolError(f"booking {booking.code} was cancelled; the trip did not take place")
        if not departure.start_date <= incident_date <= departure.end_date:
            raise ToolError(
                f"the incident date must fall within the trip, {departure.start_date} to "
                f"{departure.end_date}"
            )
        if incident_date > rules.TODAY.isoformat():
            raise ToolError("the incident date is in the future")
        limit = cover[claim_type][0]
    deductible = cover[claim_type][1]
    paid = money(min(amount, limit) - deductible)
    if paid <= 0:
        raise ToolError(f"the amount is not above the plan's {deductible:.2f} deductible")
    return paid
