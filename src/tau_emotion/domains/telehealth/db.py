"""Records of the telehealth clinic's back office and the database that holds them.

Money is the kit's `Money`, a cent-exact Decimal written '79.00' (no float rounding in
refunds); times are ISO strings in clinic time ('2025-03-12T10:30'), dates are 'YYYY-MM-DD'.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from decimal import Decimal
from typing import Literal

from pydantic import Field

from tau_emotion.domains.common import Money
from tau_emotion.domains.kit.handoff import TicketTransfer
from tau_emotion.domains.state import DomainDB, Record

Transfer = TicketTransfer
"""A hand-off to a human agent (see `kit.handoff`)."""

VisitType = Literal["video", "phone", "in_person_follow_up"]
Specialty = Literal[
    "primary_care",
    "behavioral_health",
    "dermatology",
    "cardiology",
    "endocrinology",
    "pulmonology",
]
DeviceKind = Literal["blood_pressure_cuff", "glucometer", "pulse_oximeter", "weight_scale"]
AppointmentStatus = Literal[
    "scheduled", "completed", "cancelled", "late_cancelled", "cancelled_by_clinic", "no_show"
]


class Address(Record):
    street: str
    city: str
    state: str
    zip_code: str


class PaymentMethod(Record):
    method_id: str
    kind: Literal["credit_card", "debit_card", "hsa_card"]
    brand: str
    last4: str
    expires: str = Field(description="Last valid month, 'YYYY-MM'.")


class Coverage(Record):
    plan_id: str
    member_id: str
    valid_through: str


class Patient(Record):
    patient_id: str
    first_name: str
    last_name: str
    date_of_birth: str
    email: str
    phone: str
    address: Address
    coverage: Coverage | None
    payment_methods: tuple[PaymentMethod, ...]
    allergies: tuple[str, ...]
    primary_provider_id: str | None


class Provider(Record):
    provider_id: str
    name: str
    credentials: str
    specialty: Specialty
    visit_types: tuple[VisitType, ...]
    licensed_states: tuple[str, ...]
    clinic: str = Field(description="Where in-person follow-ups happen, 'City, ST'.")


class Slot(Record):
    slot_id: str
    provider_id: str
    start: str
    status: Literal["open", "booked", "blocked"]


class Appointment(Record):
    appointment_id: str
    patient_id: str
    provider_id: str
    slot_id: str | None = Field(description="None for visits before the current scheduler.")
    start: str
    visit_type: VisitType
    status: AppointmentStatus
    copay: Money = Field(description="Price of the visit before any voucher.")
    voucher_code: str | None
    voucher_discount: Money
    reschedule_count: int
    booked_on: str


class VisitSummary(Record):
    record_id: str
    patient_id: str
    appointment_id: str
    provider_id: str
    visit_date: str
    summary: str
    follow_up: str


class Interaction(Record):
    drug: str
    severity: Literal["major", "moderate"]
    effect: str


class Drug(Record):
    name: str
    drug_class: str
    controlled_schedule: str | None = Field(description="DEA schedule ('II', 'IV') or None.")
    over_the_counter: bool
    interactions: tuple[Interaction, ...]


class Prescription(Record):
    prescription_id: str
    patient_id: str
    drug: str
    strength: str
    directions: str
    prescriber_id: str
    pharmacy_id: str
    status: Literal["active", "expired", "discontinued"]
    refills_remaining: int
    days_supply: int
    last_fill_date: str
    expires_on: str


class Pharmacy(Record):
    pharmacy_id: str
    name: str
    kind: Literal["retail", "mail_order"]
    address: Address
    phone: str
    hours: str
    status: Literal["open", "closed"]


class RefillRequest(Record):
    request_id: str
    prescription_id: str
    patient_id: str
    pharmacy_id: str
    requested_on: str
    status: Literal["sent", "filled"]


class InsurancePlan(Record):
    plan_id: str
    payer: str
    plan_name: str
    accepted: bool = Field(description="In network with the clinic.")
    covers_telehealth: bool
    video_copay: Money
    phone_copay: Money
    in_person_copay: Money


class Voucher(Record):
    code: str
    issuer: str
    patient_id: str | None = Field(description="None: any patient may use it.")
    kind: Literal["copay_waiver", "fixed_amount"]
    amount: Money = Field(description="Discount of a fixed_amount voucher; 0 for waivers.")
    eligible_visit_types: tuple[VisitType, ...]
    expires_on: str
    status: Literal["available", "redeemed", "void"]
    appointment_id: str | None


PaymentKind = Literal["copay", "no_show_fee", "refund"]


class Payment(Record):
    payment_id: str
    patient_id: str
    appointment_id: str | None
    kind: PaymentKind
    amount: Money
    method_id: str
    posted_on: str
    refund_of: str | None


def payment(
    pid: str,
    patient_id: str,
    appointment_id: str | None,
    kind: PaymentKind,
    amount: Decimal,
    method_id: str,
    on: str,
    refund_of: str | None = None,
) -> Payment:
    """A copay, no-show fee or refund, as the tools post it and the generated history does."""
    return Payment(
        payment_id=pid,
        patient_id=patient_id,
        appointment_id=appointment_id,
        kind=kind,
        amount=amount,
        method_id=method_id,
        posted_on=on,
        refund_of=refund_of,
    )


class Device(Record):
    device_id: str
    patient_id: str
    kind: DeviceKind
    model: str
    serial: str
    status: Literal["active", "replacement_pending", "returned"]
    enrolled_on: str


class DeviceUpload(Record):
    upload_id: str
    device_id: str
    taken_at: str
    reading: str
    flagged: bool = Field(description="Outside the range the care team set; for clinicians.")


class DeviceShipment(Record):
    shipment_id: str
    device_id: str
    patient_id: str
    reason: Literal["not_syncing", "damaged"]
    ship_to: Address
    created_on: str
    status: Literal["processing", "shipped"]


class TelehealthDB(DomainDB):
    patients: MutableMapping[str, Patient]
    providers: MutableMapping[str, Provider]
    slots: MutableMapping[str, Slot]
    appointments: MutableMapping[str, Appointment]
    visit_summaries: MutableMapping[str, VisitSummary]
    drugs: MutableMapping[str, Drug]
    prescriptions: MutableMapping[str, Prescription]
    pharmacies: MutableMapping[str, Pharmacy]
    refill_requests: MutableMapping[str, RefillRequest]
    insurance_plans: MutableMapping[str, InsurancePlan]
    vouchers: MutableMapping[str, Voucher]
    payments: MutableMapping[str, Payment]
    devices: MutableMapping[str, Device]
    device_uploads: MutableMapping[str, DeviceUpload]
    device_shipments: MutableMapping[str, DeviceShipment]
    transfers: MutableMapping[str, Transfer]
