"""Prescription tools: medication list, interaction check, pharmacies, refills, transfers."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tau_emotion.domains.common import next_id, words
from tau_emotion.domains.telehealth.db import Prescription, RefillRequest
from tau_emotion.domains.telehealth.rules import REFILL_EARLY_DAYS, TODAY
from tau_emotion.domains.telehealth.tools_base import TelehealthBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError


def refill_available_from(rx: Prescription) -> date:
    last = date.fromisoformat(rx.last_fill_date)
    return last + timedelta(days=rx.days_supply - REFILL_EARLY_DAYS)


class PharmacyTools(TelehealthBase):
    @tool("read")
    def list_prescriptions(self, patient_id: str) -> list[dict[str, Any]]:
        """A patient's prescriptions with refills left, refill timing, pharmacy and whether
        the drug is a controlled substance.

        Args:
            patient_id: The verified patient's id.
        """
        rows = self.db.prescriptions.values()
        mine = self._patients_rows(rows, patient_id, lambda rx: rx.prescription_id)
        return [self._rx_view(rx) for rx in mine]

    def _rx_view(self, rx: Prescription) -> dict[str, Any]:
        drug = self.db.drugs.get(rx.drug)
        pharmacy = self.db.pharmacies.get(rx.pharmacy_id)
        return {
            "prescription_id": rx.prescription_id,
            "drug": rx.drug,
            "strength": rx.strength,
            "directions": rx.directions,
            "prescriber": self._provider(rx.prescriber_id).name,
            "pharmacy_id": rx.pharmacy_id,
            "pharmacy_name": pharmacy.name if pharmacy else None,
            "status": rx.status,
            "refills_remaining": rx.refills_remaining,
            "days_supply": rx.days_supply,
            "last_fill_date": rx.last_fill_date,
            "refill_available_from": refill_available_from(rx).isoformat(),
            "expires_on": rx.expires_on,
            "controlled_schedule": drug.controlled_schedule if drug else None,
            "refill_in_progress": self._open_request(rx.prescription_id),
        }

    def _open_request(self, prescription_id: str) -> str | None:
        for request in self.db.refill_requests.values():
            if request.prescription_id == prescription_id and request.status == "sent":
                return request.request_id
        return None

    @tool("read")
    def check_drug_interactions(self, patient_id: str, drug_name: str) -> dict[str, Any]:
        """Check one drug (prescribed or over the counter) against the patient's other active
        prescriptions. Reports what the reference flags; it is not medical advice.

        Args:
            patient_id: The verified patient's id.
            drug_name: Generic drug name, e.g. 'ibuprofen' or 'sertraline'.
        """
        self._patient(patient_id)
        name = words(drug_name)
        drug = self.db.drugs.get(name)
        if drug is None:
            raise ToolError(f"{drug_name!r} is not in the clinic's drug reference")
        active = sorted(
            {
                rx.drug
                for rx in self.db.prescriptions.values()
                if rx.patient_id == patient_id and rx.status == "active" and rx.drug != name
            }
        )
        found = [
            {"with": i.drug, "severity": i.severity, "effect": i.effect}
            for i in drug.interactions
            if i.drug in active
        ]
        return {
            "drug": name,
            "checked_against": active,
            "interactions": found,
            "major_interaction": any(f["severity"] == "major" for f in found),
        }

    @tool("read")
    def list_pharmacies(self, city: str | None = None) -> list[dict[str, Any]]:
        """Pharmacies the clinic sends prescriptions to (retail and mail order), with status.

        Args:
            city: Optional city filter for retail pharmacies; mail-order ones are always listed.
        """
        wanted = city.strip().lower() if city else None
        return [
            p.model_dump()
            for p in self.db.pharmacies.values()
            if wanted is None or p.kind == "mail_order" or p.address.city.lower() == wanted
        ]

    @tool("write")
    def request_refill(self, patient_id: str, prescription_id: str) -> dict[str, Any]:
        """Send a refill of a prescription with refills left to its pharmacy (which must be
        open); a discontinued one cannot be refilled. The policy says which refills are
        allowed: not too early, not for a controlled substance or an expired prescription, not
        with a major interaction flagged.

        Args:
            patient_id: The verified patient's id.
            prescription_id: The prescription to refill.
        """
        self._patient(patient_id)
        rx = self._own_prescription(patient_id, prescription_id)
        if rx.status == "discontinued":
            raise ToolError(
                f"{rx.drug} is discontinued: it needs a new prescription from a provider; offer "
                "a visit"
            )
        # Expiry (an expired prescription is marked so, but the pharmacy would still fill
        # it), controlled substances, timing and interactions are the policy's to judge
        # (telehealth.refill_* and telehealth.no_controlled_refill): the tool sends what it is
        # asked while the prescription still has a refill to give.
        if rx.refills_remaining <= 0:
            raise ToolError(
                f"no refills left on {rx.drug}: the prescriber must renew it at a visit"
            )
        pending = self._open_request(prescription_id)
        if pending:
            raise ToolError(f"refill {pending} of {rx.drug} is already at the pharmacy")
        pharmacy = self.db.pharmacies[rx.pharmacy_id]
        if pharmacy.status != "open":
            raise ToolError(
                f"{pharmacy.name} ({pharmacy.pharmacy_id}) is closed: move the prescription "
                "to an open pharmacy first"
            )
        request_id = next_id(self.db.refill_requests, "RR", 5)
        self.db.refill_requests[request_id] = RefillRequest(
            request_id=request_id,
            prescription_id=prescription_id,
            patient_id=patient_id,
            pharmacy_id=pharmacy.pharmacy_id,
            requested_on=TODAY.isoformat(),
            status="sent",
        )
        updated = rx.model_copy(update={"refills_remaining": rx.refills_remaining - 1})
        self.db.prescriptions[prescription_id] = updated
        return {
            "request_id": request_id,
            "drug": rx.drug,
            "pharmacy_name": pharmacy.name,
            "refills_remaining": updated.refills_remaining,
        }

    @tool("write")
    def change_prescription_pharmacy(
        self, patient_id: str, prescription_id: str, pharmacy_id: str
    ) -> dict[str, Any]:
        """Move an active prescription to another open pharmacy, once no refill of it is in
        progress. The policy says which prescriptions may move (not controlled substances).

        Args:
            patient_id: The verified patient's id.
            prescription_id: The prescription to move.
            pharmacy_id: The new pharmacy, from list_pharmacies.
        """
        self._patient(patient_id)
        rx = self._own_prescription(patient_id, prescription_id)
        if rx.status != "active":
            raise ToolError(f"{rx.drug} is {rx.status}; only active prescriptions can be moved")
        # Controlled substances stay where they are by policy
        # (telehealth.controlled_stays_at_pharmacy), not by the tool.
        pharmacy = self.db.pharmacies.get(pharmacy_id)
        if pharmacy is None:
            raise ToolError(f"no pharmacy with id {pharmacy_id}")
        if pharmacy.status != "open":
            raise ToolError(f"{pharmacy.name} ({pharmacy_id}) is closed")
        if pharmacy_id == rx.pharmacy_id:
            raise ToolError(f"{rx.drug} is already sent to {pharmacy.name}")
        pending = self._open_request(prescription_id)
        if pending:
            raise ToolError(
                f"refill {pending} is being filled at the current pharmacy; move the "
                "prescription after it is picked up"
            )
        updated = rx.model_copy(update={"pharmacy_id": pharmacy_id})
        self.db.prescriptions[prescription_id] = updated
        return self._rx_view(updated)
