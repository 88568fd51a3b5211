"""Records of the telecom back office: customers, lines, devices, bills and what they cause.

Dates are ISO strings ('2025-06-12') and money is the kit's `Money` (a cent-exact Decimal,
written '45.00'), so that snapshots and state hashes are exact; tools show amounts the same way.
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

LineStatus = Literal["active", "suspended"]
SuspensionReason = Literal["nonpayment", "lost_device", "stolen_device", "temporary_hold"]
DeviceStatus = Literal["active", "lost", "stolen"]
TicketCategory = Literal["network", "device", "billing"]
ChargeKind = Literal["addon", "proration"]
BillItemKind = Literal[
    "plan", "device_installment", "addon", "proration", "autopay_discount", "late_fee"
]


class Plan(Record):
    """A rate plan in the catalog; legacy plans stay on lines but cannot be chosen again."""

    plan_id: str
    name: str
    monthly_price: Money
    data_gb: int | None = Field(description="Monthly data allowance; None is unlimited.")
    hotspot_gb: int
    available: bool = Field(description="False for legacy plans closed to new changes.")
    min_age: int | None = Field(default=None, description="Account holder's minimum age.")


class Addon(Record):
    """A purchasable add-on: a data top-up for this month or an international travel pass."""

    addon_id: str
    name: str
    kind: Literal["data_topup", "travel_pass"]
    price: Money
    data_gb: int | None = None
    days: int | None = Field(default=None, description="Travel passes: days of validity.")


class PaymentMethod(Record):
    method_id: str
    kind: Literal["credit_card", "debit_card", "bank_account"]
    brand: str
    last4: str
    expires: str | None = Field(description="'YYYY-MM' for cards; None for bank accounts.")


class Customer(Record):
    """The account holder; one customer owns one account with one or more lines."""

    customer_id: str
    first_name: str
    last_name: str
    email: str
    date_of_birth: str
    zip_code: str
    member_since: str
    line_ids: tuple[str, ...]
    payment_methods: tuple[PaymentMethod, ...]
    autopay_method_id: str | None
    last_late_fee_waiver_on: str | None


class LineAddon(Record):
    addon_id: str
    purchased_on: str
    ends_on: str = Field(description="Last day the add-on is valid.")


class Line(Record):
    """One phone number on an account, its plan, usage and service status."""

    line_id: str
    customer_id: str
    phone_number: str
    activated_on: str
    plan_id: str
    pending_plan_id: str | None = Field(description="Downgrade taking effect next month.")
    last_plan_change_on: str | None
    status: LineStatus
    suspension_reason: SuspensionReason | None
    suspended_on: str | None
    last_hold_on: str | None = Field(description="Start of the last temporary hold.")
    device_id: str
    data_used_mb: int = Field(description="Data used this calendar month.")
    roaming_enabled: bool
    addons: tuple[LineAddon, ...]
    network_resets: int
    last_network_reset_on: str | None


class Financing(Record):
    """A device installment plan; remaining_balance reaches 0 when the device is paid off."""

    monthly_installment: Money
    remaining_balance: Money


class Device(Record):
    device_id: str
    customer_id: str
    line_id: str
    model: str
    imei: str
    status: DeviceStatus
    purchased_on: str
    financing: Financing | None = Field(description="None for devices bought outright.")
    unlocked: bool


class BillItem(Record):
    kind: BillItemKind
    description: str
    amount: Money
    line_id: str | None = None


class Bill(Record):
    """A monthly bill; a waived late fee stays listed but no longer counts in the total."""

    bill_id: str
    customer_id: str
    period: str = Field(description="Billed month, 'YYYY-MM'.")
    issued_on: str
    due_on: str
    items: tuple[BillItem, ...]
    amount_paid: Money
    late_fee_waived_on: str | None


class Payment(Record):
    payment_id: str
    customer_id: str
    method_id: str
    amount: Money
    paid_on: str
    bill_id: str | None = None
    device_id: str | None = None


def payment(
    payment_id: str,
    customer_id: str,
    method_id: str,
    amount: Decimal,
    on: str,
    bill_id: str | None = None,
    device_id: str | None = None,
) -> Payment:
    """A payment of a bill or a device, as the tools take it and the generated billing history
    does."""
    return Payment(
        payment_id=payment_id,
        customer_id=customer_id,
        method_id=method_id,
        amount=amount,
        paid_on=on,
        bill_id=bill_id,
        device_id=device_id,
    )


class Charge(Record):
    """A one-time charge waiting for the next bill (add-ons, plan upgrade proration)."""

    charge_id: str
    customer_id: str
    line_id: str
    kind: ChargeKind
    description: str
    amount: Money
    created_on: str


def charge(
    charge_id: str,
    customer_id: str,
    line_id: str,
    kind: ChargeKind,
    text: str,
    amount: Decimal,
    on: str,
) -> Charge:
    """A one-time charge, as the tools add it and the generated billing history does."""
    return Charge(
        charge_id=charge_id,
        customer_id=customer_id,
        line_id=line_id,
        kind=kind,
        description=text,
        amount=amount,
        created_on=on,
    )


class Ticket(Record):
    ticket_id: str
    customer_id: str
    line_id: str
    category: TicketCategory
    status: Literal["open", "resolved"]
    opened_on: str
    # Free text written by the agent: kept for the human team, left out of the state hash so
    # that two agents wording it differently still reach the same graded state.
    description: str = Field(default="", exclude=True)


class TelecomDB(DomainDB):
    plans: MutableMapping[str, Plan]
    addons: MutableMapping[str, Addon]
    customers: MutableMapping[str, Customer]
    lines: MutableMapping[str, Line]
    devices: MutableMapping[str, Device]
    bills: MutableMapping[str, Bill]
    payments: MutableMapping[str, Payment]
    charges: MutableMapping[str, Charge]
    tickets: MutableMapping[str, Ticket]
    transfers: MutableMapping[str, Transfer]
