"""Add-ons to a booking: optional tours, travel insurance, and insurance claims."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import calendar_date, fmt, money, next_id, record_view
from tau_emotion.domains.kit.members import each_named
from tau_emotion.domains.tools import tool
from tau_emotion.domains.travel import pricing, rules
from tau_emotion.domains.travel.db import Claim, ClaimType, InsurancePolicy, Plan, TourBooking
from tau_emotion.domains.travel.tools_base import TravelBase
from tau_emotion.errors import ToolError


class ExtraTools(TravelBase):
    @tool("write")
    def add_tour(
        self, booking_code: str, tour_id: str, date: str, traveller_ids: list[str]
    ) -> dict[str, Any]:
        """Book an optional tour for some travellers of a booking, on a full day of the trip
        (not the arrival or departure day), and charge it to the booking's payment method. The
        policy says how far ahead tours are booked.

        Args:
            booking_code: The booking code.
            tour_id: Tour id from list_tours, e.g. 'T504'.
            date: Day of the tour, YYYY-MM-DD; the tour must run on that weekday.
            traveller_ids: Ids of the travellers joining, from get_booking.
        """
        b = self._confirmed(booking_code)
        tour = self.db.tours.get(tour_id.strip().upper())
        if tour is None:
            raise ToolError(f"no tour with id {tour_id!r}")
        package = self.db.packages[b.package_id]
        if tour.destination != package.destination:
            raise ToolError(f"{tour.name} is in {tour.destination}, not {package.destination}")
        day = calendar_date(date).isoformat()
        dep = self.db.departures[b.departure_id]
        first = rules.parse_date(dep.start_date) + timedelta(days=1)
        last = rules.parse_date(dep.end_date) - timedelta(days=1)
        if not first.isoformat() <= day <= last.isoformat():
            raise ToolError(f"tours can be booked from {first} to {last} on this trip")
        weekday = rules.WEEKDAYS[rules.parse_date(day).weekday()]
        if weekday not in tour.weekdays:
            raise ToolError(f"{tour.name} runs on {', '.join(tour.weekdays)}, not {weekday}")
        # Two days ahead is the policy's (travel.tour_booking_lead); a day gone is gone.
        if rules.days_until(day) < 0:
            raise ToolError(f"{day} has passed")
        for person in each_named(
            traveller_ids,
            {t.id: t for t in b.travellers},
            empty="name each joining traveller once",
            missing=lambda tid: f"booking {b.code} has no traveller {tid!r}",
        ):
            if rules.age_on(person.date_of_birth, day) < tour.min_age:
                raise ToolError(f"{person.full_name} is under the minimum age of {tour.min_age}")
            for booked in b.tours:
                if (
                    booked.tour_id == tour.id
                    and booked.date == day
                    and person.id in booked.traveller_ids
                ):
                    raise ToolError(f"{person.full_name} is already booked on this tour that day")
        load = sum(
            len(t.traveller_ids)
            for other in self.db.bookings.values()
            if other.status != "cancelled"
            for t in other.tours
            if t.tour_id == tour.id and t.date == day
        )
        if load + len(traveller_ids) > tour.capacity:
            raise ToolError(f"{tour.name} has {max(tour.capacity - load, 0)} places left on {day}")
        total = money(tour.price_per_person * len(traveller_ids))
        added = TourBooking(
            tour_id=tour.id, date=day, traveller_ids=tuple(sorted(traveller_ids)), total=total
        )
        update = self._settle(b, total)
        update["tours"] = tuple(sorted((*b.tours, added), key=lambda t: (t.date, t.tour_id)))
        changed = b.model_copy(update=update)
        self.db.bookings[b.code] = changed
        return record_view(changed, charged=fmt(total))

    @tool("write")
    def buy_insurance(self, booking_code: str, plan: Plan) -> dict[str, Any]:
        """Add travel insurance to a booking, charged to the booking's payment method. The
        premium is 4% (basic) or 7% (premium) of the package price. The policy says until when
        insurance can be added.

        Args:
            booking_code: The booking code.
            plan: basic (medical and baggage, 100.00 deductible) or premium (also trip delay
                and trip cancellation for illness or bereavement, no deductible).
        """
        b = self._confirmed(booking_code)
        # Until 14 days before departure is the policy's (travel.insurance_window).
        if self._policy_of(b.code) is not None:
            raise ToolError(f"booking {b.code} is already insured")
        premium = money(b.package_price * rules.INSURANCE_RATES[plan])
        customer = pricing.charge(self._customer(b.customer_id), b.payment_method_id, premium)
        policy_id = next_id(self.db.insurance_policies, "IP", 5)
        policy = InsurancePolicy(
            id=policy_id,
            booking_code=b.code,
            customer_id=b.customer_id,
            plan=plan,
            premium=premium,
            payment_method_id=b.payment_method_id,
            purchased_at=rules.stamp(rules.NOW),
        )
        self.db.customers[customer.id] = customer
        self.db.insurance_policies[policy_id] = policy
        return record_view(policy)

    @tool("write")
    def file_insurance_claim(
        self, booking_code: str, claim_type: ClaimType, incident_date: str, amount: float
    ) -> dict[str, Any]:
        """File an insurance claim on an insured booking. The tool checks the plan's cover and
        the incident date and works out the payout (amount up to the limit, less deductible).
        The policy says when claims may be filed and how many.

        Args:
            booking_code: The booking code.
            claim_type: medical, baggage, trip_delay or trip_cancellation.
            incident_date: Day it happened, YYYY-MM-DD (for trip_cancellation: the day the
                booking was cancelled).
            amount: Amount claimed in dollars, from the customer's receipts; for
                trip_cancellation, the package amount not refunded (see get_booking).
        """
        b = self._booking(booking_code)
        policy = self._policy_of(b.code)
        if policy is None:
            raise ToolError(f"booking {b.code} has no travel insurance")
        day = calendar_date(incident_date).isoformat()
        dep = self.db.departures[b.departure_id]
        lost = pricing.lost_on_cancellation(b, dep) if b.status == "cancelled" else Decimal(0)
        # The amount as the agent gave it, not yet rounded to the cent: the payout is rounded
        # once, after the limit and deductible, and a claim of less than half a cent is
        # refused as not above the deductible rather than as not positive.
        claimed = Decimal(str(amount))
        # The 30-day window and one claim per type are the policy's (travel.claim_eligibility).
        paid = pricing.payout(policy, b, dep, claim_type, day, claimed, lost)
        claim_id = next_id(self.db.claims, "CL", 4)
        claim = Claim(
            id=claim_id,
            policy_id=policy.id,
            booking_code=b.code,
            customer_id=b.customer_id,
            claim_type=claim_type,
            incident_date=day,
            amount_claimed=money(claimed),
            payout=paid,
            status="submitted",
            created_at=rules.stamp(rules.NOW),
        )
        self.db.claims[claim_id] = claim
        return record_view(claim)
