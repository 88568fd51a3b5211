"""Compensation for disrupted flights, and the hand-off to a human agent."""

from __future__ import annotations

from typing import Any, Literal

from tau_emotion.domains.airline.db import PaymentMethod, Transfer, day_key
from tau_emotion.domains.airline.rules import (
    CERTIFICATE_VALIDITY,
    COMPENSATION,
    NOW,
)
from tau_emotion.domains.airline.tools_base import AirlineBase, parse_day, shown
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.handoff import HandOffDesk
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)

HAND_OFF = HandOffDesk(
    prefix="TR-",
    record=lambda key, _summary: Transfer(
        transfer_id=key, created_at=NOW.isoformat(timespec="minutes")
    ),
    reply="Transferred to a human agent (ticket {id}). Summary: {summary}",
)


class SupportTools(AirlineBase):
    @tool("write")
    def issue_compensation_certificate(
        self, user_id: str, reservation_code: str, flight_number: str, date: str
    ) -> dict[str, Any]:
        """Issue a travel certificate to the account holder for a flight of their reservation
        that the airline cancelled or that was delayed 3 hours or more. The value per passenger
        is set by the account holder's tier and the kind of disruption; one certificate per
        flight per reservation.

        Args:
            user_id: The authenticated customer's user id.
            reservation_code: The six-character booking code holding the disrupted flight.
            flight_number: The disrupted flight, e.g. 'LK482'.
            date: The disrupted flight's departure date, 'YYYY-MM-DD'.
        """
        user, reservation = self._owned(user_id, reservation_code)
        flight, day = self._flight(flight_number), parse_day(date)
        if not any(
            s.flight_number == flight.number and s.date == day for s in reservation.segments
        ):
            raise ToolError(
                f"{flight.number} on {day} is not part of reservation {reservation.code}"
            )
        key = day_key(flight.number, day)
        if key in reservation.compensated_flights:
            raise ToolError(f"a certificate was already issued for {flight.number} on {day}")
        # Who qualifies is the policy's to say (airline.compensation_eligibility); the tool
        # values the certificate by the table for the flight's disruption, a delay if it was not
        # cancelled, whatever the delay.
        kind: Literal["cancelled", "delayed"] = (
            "cancelled" if self._day(flight, day).status == "cancelled" else "delayed"
        )
        per_passenger = COMPENSATION[kind][user.tier]
        amount = per_passenger * len(reservation.passengers)
        certificate = PaymentMethod(
            id=f"cert-{reservation.code}-{flight.number}-{day}",
            kind="certificate",
            label=f"Travel certificate (compensation for {flight.number} on {day})",
            balance=amount,
            expires=(NOW.date() + CERTIFICATE_VALIDITY).isoformat(),
        )
        self.db.users[user.user_id] = user.model_copy(
            update={"payment_methods": (*user.payment_methods, certificate)}
        )
        self.db.reservations[reservation.code] = reservation.model_copy(
            update={"compensated_flights": (*reservation.compensated_flights, key)}
        )
        return {"certificate": shown(certificate), "amount": amount, "reason": kind}

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        AirlineBase,
        lambda tools: tools.db.transfers,
    )
