"""Service tools: plans, add-ons, roaming, suspensions, troubleshooting, tickets, unlocks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from tau_emotion.domains.common import fmt, next_id
from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.handoff import HandOffDesk, summary_ticket
from tau_emotion.domains.telecom.db import LineAddon, Ticket, TicketCategory
from tau_emotion.domains.telecom.rules import (
    HOLD_MAX_DAYS,
    TODAY,
    day,
    end_of_month,
)
from tau_emotion.domains.telecom.tools_base import TelecomToolBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)

SuspendReason = Literal["lost_device", "stolen_device", "temporary_hold"]


HAND_OFF = HandOffDesk(
    prefix="TR-",
    record=summary_ticket,
    reply="Transfer successful: a human agent will take over the conversation.",
    width=5,
)


class ServiceTools(TelecomToolBase):
    @tool("write")
    def change_plan(self, customer_id: str, line_id: str, new_plan_id: str) -> dict[str, Any]:
        """Move a line to another plan. An upgrade applies today and adds a prorated charge to
        the next bill; a downgrade is scheduled for the 1st of next month. The policy says
        which plan changes a line may make.

        Args:
            customer_id: The authenticated customer's id.
            line_id: The line to change.
            new_plan_id: The plan to move to, e.g. 'unlimited'.
        """
        change = self._plan_change(self._owned_line(customer_id, line_id), new_plan_id)
        if change.upgrade:
            update: dict[str, Any] = {"plan_id": change.new.plan_id, "pending_plan_id": None}
            if change.prorated_charge > 0:
                self._add_charge(
                    customer_id,
                    line_id,
                    "proration",
                    f"Plan change proration: {change.current.name} to {change.new.name}",
                    change.prorated_charge,
                )
        else:
            update = {"pending_plan_id": change.new.plan_id}
        update["last_plan_change_on"] = day(TODAY)
        self.db.lines[line_id] = change.line.model_copy(update=update)
        return {
            "customer_id": customer_id,
            "line_id": line_id,
            "new_plan": change.new.name,
            "effective_on": change.effective_on,
            "prorated_charge": fmt(change.prorated_charge),
        }

    @tool("write")
    def purchase_addon(self, customer_id: str, line_id: str, addon_id: str) -> dict[str, Any]:
        """Buy an add-on for a line; its price is added to the next bill. Data top-ups last to the
        end of this month; travel passes start today. The policy says when a line may buy one.

        Args:
            customer_id: The authenticated customer's id.
            line_id: The line that gets the add-on.
            addon_id: The add-on, from list_addons, e.g. 'data_2gb'.
        """
        line = self._owned_line(customer_id, line_id)
        addon = self.db.addons.get(addon_id)
        if addon is None:
            raise ToolError(f"no add-on with id {addon_id!r}; list_addons shows the catalog")
        # An active line, good standing, two top-ups a month, roaming on and one travel pass at
        # a time are the policy's (telecom.addon_eligibility); data cannot top up unlimited data.
        if addon.kind == "data_topup":
            plan = self._plan(line.plan_id)
            if plan.data_gb is None:
                raise ToolError(f"{plan.name} has unlimited data; top-ups do not apply")
            ends = end_of_month(TODAY)
        else:
            ends = TODAY + timedelta(days=(addon.days or 1) - 1)
        bought = LineAddon(addon_id=addon_id, purchased_on=day(TODAY), ends_on=day(ends))
        self.db.lines[line_id] = line.model_copy(update={"addons": (*line.addons, bought)})
        self._add_charge(customer_id, line_id, "addon", addon.name, addon.price)
        return {
            "customer_id": customer_id,
            "line_id": line_id,
            "addon": addon.name,
            "price": fmt(addon.price),
            "valid_until": day(ends),
        }

    @tool("write")
    def set_international_roaming(
        self, customer_id: str, line_id: str, enabled: bool
    ) -> dict[str, Any]:
        """Turn international roaming on or off for a line. The policy says when it may be
        turned on.

        Args:
            customer_id: The authenticated customer's id.
            line_id: The line to change.
            enabled: True to turn roaming on, False to turn it off.
        """
        line = self._owned_line(customer_id, line_id)
        if line.roaming_enabled == enabled:
            raise ToolError(f"roaming is already {'on' if enabled else 'off'} on line {line_id}")
        # An active line in good standing is the policy's (telecom.roaming_eligibility).
        self.db.lines[line_id] = line.model_copy(update={"roaming_enabled": enabled})
        return {"customer_id": customer_id, "line_id": line_id, "roaming_enabled": enabled}

    @tool("write")
    def suspend_line(self, customer_id: str, line_id: str, reason: SuspendReason) -> dict[str, Any]:
        """Suspend a line. For a lost or stolen phone this also blocks the device; a temporary
        hold pauses service for up to 90 days. The policy says which lines may take a hold.

        Args:
            customer_id: The authenticated customer's id.
            line_id: The line to suspend.
            reason: 'lost_device', 'stolen_device' or 'temporary_hold'.
        """
        line = self._owned_line(customer_id, line_id)
        if line.status == "suspended":
            raise ToolError(f"line {line_id} is already suspended ({line.suspension_reason})")
        device = self._device(line.device_id)
        result: dict[str, Any] = {"customer_id": customer_id, "line_id": line_id, "reason": reason}
        if reason == "temporary_hold":
            # A paid-off device and one hold a year are the policy's
            # (telecom.temporary_hold_eligibility).
            result["hold_ends_on"] = day(TODAY + timedelta(days=HOLD_MAX_DAYS))
        else:
            status = "lost" if reason == "lost_device" else "stolen"
            self.db.devices[device.device_id] = device.model_copy(update={"status": status})
            result["device_blocked"] = device.model
        self.db.lines[line_id] = line.model_copy(
            update={
                "status": "suspended",
                "suspension_reason": reason,
                "suspended_on": day(TODAY),
                "last_hold_on": day(TODAY) if reason == "temporary_hold" else line.last_hold_on,
            }
        )
        return result

    @tool("write")
    def reactivate_line(self, customer_id: str, line_id: str) -> dict[str, Any]:
        """Lift a line's suspension; a phone reported lost is unblocked with it. The policy says
        which suspensions may be lifted (stolen phones, nonpayment).

        Args:
            customer_id: The authenticated customer's id.
            line_id: The suspended line.
        """
        line = self._owned_line(customer_id, line_id)
        if line.status != "suspended":
            raise ToolError(f"line {line_id} is not suspended")
        # Stolen phones and unpaid bills are the policy's (telecom.reactivation_eligibility); a
        # phone reported stolen stays blocked whatever the line's status.
        if line.suspension_reason == "lost_device":
            device = self._device(line.device_id)
            self.db.devices[device.device_id] = device.model_copy(update={"status": "active"})
        self.db.lines[line_id] = line.model_copy(
            update={"status": "active", "suspension_reason": None, "suspended_on": None}
        )
        return {"customer_id": customer_id, "line_id": line_id, "status": "active"}

    @tool("write")
    def reset_network_settings(self, customer_id: str, line_id: str) -> dict[str, Any]:
        """Push a network settings reset to an active line (troubleshooting); the customer then
        restarts the phone.

        Args:
            customer_id: The authenticated customer's id.
            line_id: The line with the problem.
        """
        line = self._owned_line(customer_id, line_id)
        if line.status != "active":
            raise ToolError(
                f"line {line_id} is suspended ({line.suspension_reason}); a reset will not help"
            )
        self.db.lines[line_id] = line.model_copy(
            update={
                "network_resets": line.network_resets + 1,
                "last_network_reset_on": day(TODAY),
            }
        )
        return {
            "customer_id": customer_id,
            "line_id": line_id,
            "reset": "sent",
            "next_step": "ask the customer to restart the phone",
        }

    @tool("write")
    def open_ticket(
        self, customer_id: str, line_id: str, category: TicketCategory, description: str
    ) -> dict[str, Any]:
        """Open a support ticket for a specialist team. One open ticket per category per line.

        Args:
            customer_id: The authenticated customer's id.
            line_id: The line the problem is about.
            category: 'network' (coverage or service), 'device' (hardware) or 'billing' (disputes).
            description: What the customer reports and what was tried.
        """
        self._owned_line(customer_id, line_id)
        if not description.strip():
            raise ToolError("describe the problem in the ticket")
        for ticket in self.db.tickets.values():
            if (
                ticket.line_id == line_id
                and ticket.category == category
                and ticket.status == "open"
            ):
                raise ToolError(
                    f"ticket {ticket.ticket_id} ({category}) is already open for line {line_id}"
                )
        ticket_id = next_id(self.db.tickets, "T-", 5)
        self.db.tickets[ticket_id] = Ticket(
            ticket_id=ticket_id,
            customer_id=customer_id,
            line_id=line_id,
            category=category,
            status="open",
            opened_on=day(TODAY),
            description=description.strip(),
        )
        return {"customer_id": customer_id, "ticket_id": ticket_id, "category": category}

    @tool("write")
    def unlock_device(self, customer_id: str, device_id: str) -> dict[str, Any]:
        """Unlock a device so it works with other carriers' SIM cards. The policy says which
        devices may be unlocked.

        Args:
            customer_id: The authenticated customer's id.
            device_id: The device to unlock.
        """
        device = self._owned_device(customer_id, device_id)
        if device.unlocked:
            raise ToolError(f"{device.model} ({device_id}) is already unlocked")
        # Paid off, not lost or stolen, 60 days old, good standing: the policy's
        # (telecom.unlock_eligibility).
        self.db.devices[device_id] = device.model_copy(update={"unlocked": True})
        return {"customer_id": customer_id, "device_id": device_id, "unlocked": True}

    transfer_to_human_agents = HAND_OFF.tool(
        DOCS["transfer_to_human_agents"],
        TelecomToolBase,
        lambda tools: tools.db.transfers,
    )
