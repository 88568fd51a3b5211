"""Identity, profile, insurance and hand-off tools."""

from __future__ import annotations

import re
from typing import Any

from tau_emotion.domains.common import fmt, phone_digits
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.handoff import HandOffDesk, summary_ticket
from tau_emotion.domains.kit.identity import (
    Directory,
    Lookups,
    PhoneRule,
    date_of_birth,
    us_phone,
    written_date,
)
from tau_emotion.domains.telehealth.db import Address, Coverage, Patient
from tau_emotion.domains.telehealth.rules import STATE_ZIP_PREFIXES, TODAY
from tau_emotion.domains.telehealth.tools_base import TelehealthBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)


_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
_MEMBER_ID = re.compile(r"^[A-Z]{3}\d{9}$")
PLAN_YEAR_END = "2025-12-31"


def zip_state(zip_code: str) -> str | None:
    """The served state a ZIP code is in, by its two-digit prefix; None outside them."""
    return next(
        (s for s, prefixes in STATE_ZIP_PREFIXES.items() if zip_code.startswith(prefixes)), None
    )


def _identity(patient: Patient) -> dict[str, str]:
    # Lookups return only what identifies the record; details need get_patient_details.
    return {
        "patient_id": patient.patient_id,
        "first_name": patient.first_name,
        "last_name": patient.last_name,
    }


PATIENTS: Lookups[TelehealthBase, Patient] = Lookups(
    Directory(
        answer=_identity,
        missing="no patient with that {what}",
        phone=PhoneRule(us_phone, "a phone number has 10 digits (area code included)"),
    ),
    people=lambda tools: tools.db.patients.values(),
)
HAND_OFF = HandOffDesk(
    prefix="TR",
    record=summary_ticket,
    reply="Transfer {id} created: a member of the clinic staff will take over.",
)


class PatientTools(TelehealthBase):
    find_patient_by_email = PATIENTS.email(DOCS["find_patient_by_email"])
    find_patient_by_phone = PATIENTS.phone(DOCS["find_patient_by_phone"])
    find_patient_by_name_and_dob = PATIENTS.full_name_and(
        DOCS["find_patient_by_name_and_dob"],
        date_of_birth(lambda p: p.date_of_birth, written_date),
    )

    @tool("read")
    def get_patient_details(self, patient_id: str) -> dict[str, Any]:
        """Profile of a verified patient: contact details, address, insurance, payment methods,
        allergies and primary provider.

        Args:
            patient_id: The id returned by a find_patient_* lookup.
        """
        patient = self._patient(patient_id)
        primary = self.db.providers.get(patient.primary_provider_id or "")
        return {
            "patient_id": patient.patient_id,
            "name": f"{patient.first_name} {patient.last_name}",
            "date_of_birth": patient.date_of_birth,
            "email": patient.email,
            "phone": patient.phone,
            "address": patient.address.model_dump(),
            "insurance": self._coverage_view(patient),
            "payment_methods": [
                {**m.model_dump(), "expired": m.expires < TODAY.strftime("%Y-%m")}
                for m in patient.payment_methods
            ],
            "allergies": list(patient.allergies),
            "primary_provider": primary.name if primary else None,
        }

    @tool("write")
    def update_contact_details(
        self,
        patient_id: str,
        email: str | None = None,
        phone: str | None = None,
        street: str | None = None,
        city: str | None = None,
        zip_code: str | None = None,
    ) -> dict[str, Any]:
        """Change a patient's email, phone and/or home address. An address change needs street,
        city and zip code together, in a state the clinic serves; the state follows the ZIP.
        The policy says which moves the desk may record (within the current state).

        Args:
            patient_id: The verified patient's id.
            email: New email address, if it changes.
            phone: New 10-digit phone number, if it changes.
            street: New street address, e.g. '4411 Cedar Ln Apt 2'.
            city: New city.
            zip_code: New 5-digit ZIP code.
        """
        patient = self._patient(patient_id)
        update: dict[str, Any] = {}
        if email is not None:
            update["email"] = self._new_email(patient, email)
        if phone is not None:
            update["phone"] = self._new_phone(patient, phone)
        if street is not None or city is not None or zip_code is not None:
            update["address"] = self._new_address(patient, street, city, zip_code)
        changed = {k: v for k, v in update.items() if getattr(patient, k) != v}
        if not changed:
            raise ToolError("nothing to change: give at least one new value")
        self.db.patients[patient_id] = patient.model_copy(update=changed)
        return self.get_patient_details(patient_id)

    def _new_email(self, patient: Patient, email: str) -> str:
        value = email.strip().lower()
        if not _EMAIL.match(value):
            raise ToolError(f"{email!r} is not a valid email address")
        for other in self.db.patients.values():
            if other.patient_id != patient.patient_id and other.email.lower() == value:
                raise ToolError("that email address belongs to another patient account")
        return value

    def _new_phone(self, patient: Patient, phone: str) -> str:
        digits = phone_digits(phone)
        if len(digits) != 10:
            raise ToolError("a phone number has 10 digits (area code included)")
        for other in self.db.patients.values():
            if other.patient_id != patient.patient_id and phone_digits(other.phone) == digits:
                raise ToolError("that phone number belongs to another patient account")
        return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"

    def _new_address(
        self, patient: Patient, street: str | None, city: str | None, zip_code: str | None
    ) -> Address:
        # Stripped before the test, so that a blank street or city is missing, not stored.
        street, city, zip_code = ((text or "").strip() for text in (street, city, zip_code))
        if not (street and city and zip_code):
            raise ToolError("an address change needs street, city and zip_code together")
        if not re.fullmatch(r"\d{5}", zip_code):
            raise ToolError("zip_code must be 5 digits")
        # A move to another state is the policy's to refuse (telehealth.address_in_state); the
        # tool records the state the ZIP is in, so the address stays consistent.
        state = zip_state(zip_code)
        if state is None:
            raise ToolError(f"ZIP {zip_code} is not in a state the clinic serves")
        return Address(street=street, city=city, state=state, zip_code=zip_code)

    @tool("read")
    def list_insurance_plans(self) -> list[dict[str, Any]]:
        """Insurance plans the clinic knows, whether each is in network, and its copays."""
        return [
            {
                "plan_id": p.plan_id,
                "payer": p.payer,
                "plan_name": p.plan_name,
                "in_network": p.accepted,
                "covers_telehealth": p.covers_telehealth,
                "copays": {
                    "video": fmt(p.video_copay),
                    "phone": fmt(p.phone_copay),
                    "in_person_follow_up": fmt(p.in_person_copay),
                },
            }
            for p in self.db.insurance_plans.values()
        ]

    @tool("write")
    def update_insurance(self, patient_id: str, plan_id: str, member_id: str) -> dict[str, Any]:
        """Put an insurance plan on file for the rest of the plan year. Prices of appointments
        already booked do not change; an out-of-network plan prices visits at self-pay rates.
        The policy says which plans may be put on file (in network only).

        Args:
            patient_id: The verified patient's id.
            plan_id: Plan id from list_insurance_plans, e.g. 'PLN-BCG'.
            member_id: Member id printed on the insurance card: 3 letters then 9 digits.
        """
        patient = self._patient(patient_id)
        plan = self.db.insurance_plans.get(plan_id)
        if plan is None:
            raise ToolError(f"no insurance plan with id {plan_id}; see list_insurance_plans")
        # Only in-network plans go on file by policy (telehealth.in_network_insurance_only).
        member = member_id.strip().upper()
        if not _MEMBER_ID.match(member):
            raise ToolError("member_id must be 3 letters followed by 9 digits, as on the card")
        coverage = Coverage(plan_id=plan_id, member_id=member, valid_through=PLAN_YEAR_END)
        if patient.coverage == coverage:
            raise ToolError("this coverage is already on file")
        updated = patient.model_copy(update={"coverage": coverage})
        self.db.patients[patient_id] = updated
        view = self._coverage_view(updated)
        assert view is not None
        return view

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        TelehealthBase,
        lambda tools: tools.db.transfers,
    )
