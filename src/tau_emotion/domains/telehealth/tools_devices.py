"""Remote-monitoring tools: enrolled devices, their recent uploads, and replacements."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from tau_emotion.domains.common import next_id
from tau_emotion.domains.telehealth.db import Device, DeviceShipment, DeviceUpload
from tau_emotion.domains.telehealth.rules import DEVICE_SILENT, NOW, TODAY
from tau_emotion.domains.telehealth.tools_base import TelehealthBase
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

RECENT_READINGS = 3


class DeviceTools(TelehealthBase):
    def _uploads(self, device_id: str) -> list[DeviceUpload]:
        rows = [u for u in self.db.device_uploads.values() if u.device_id == device_id]
        return sorted(rows, key=lambda u: u.taken_at, reverse=True)

    def _own_device(self, patient_id: str, device_id: str) -> Device:
        device = self.db.devices.get(device_id)
        if device is None or device.patient_id != patient_id:
            raise ToolError(f"patient {patient_id} has no device {device_id}")
        return device

    @tool("read")
    def list_devices(self, patient_id: str) -> list[dict[str, Any]]:
        """A patient's remote-monitoring devices: status, last upload, whether it is syncing,
        and the latest readings (flagged readings are for the care team to interpret).

        Args:
            patient_id: The verified patient's id.
        """
        self._patient(patient_id)
        result: list[dict[str, Any]] = []
        for device in self.db.devices.values():
            if device.patient_id != patient_id:
                continue
            uploads = self._uploads(device.device_id)
            last = uploads[0].taken_at if uploads else None
            result.append(
                {
                    **device.model_dump(),
                    "last_upload_at": last,
                    "syncing": last is not None
                    and NOW - datetime.fromisoformat(last) <= DEVICE_SILENT,
                    "recent_readings": [
                        {"taken_at": u.taken_at, "reading": u.reading, "flagged": u.flagged}
                        for u in uploads[:RECENT_READINGS]
                    ],
                }
            )
        return result

    @tool("write")
    def request_device_replacement(
        self, patient_id: str, device_id: str, reason: Literal["not_syncing", "damaged"]
    ) -> dict[str, Any]:
        """Ship a replacement for an active device to the patient's address on file. The policy
        says when a device qualifies ('not_syncing' only after more than 72 hours of silence).

        Args:
            patient_id: The verified patient's id.
            device_id: The device to replace.
            reason: not_syncing (no upload for over 72 hours) or damaged (patient reports it).
        """
        patient = self._patient(patient_id)
        device = self._own_device(patient_id, device_id)
        if device.status == "replacement_pending":
            raise ToolError(f"a replacement for {device_id} is already on its way")
        if device.status != "active":
            raise ToolError(f"{device_id} is {device.status} and no longer enrolled")
        # Whether a syncing device qualifies is the policy's to judge
        # (telehealth.device_replacement_eligibility); the tool ships what it is asked.
        shipment_id = next_id(self.db.device_shipments, "SHP", 5)
        self.db.device_shipments[shipment_id] = DeviceShipment(
            shipment_id=shipment_id,
            device_id=device_id,
            patient_id=patient_id,
            reason=reason,
            ship_to=patient.address,
            created_on=TODAY.isoformat(),
            status="processing",
        )
        self.db.devices[device_id] = device.model_copy(update={"status": "replacement_pending"})
        a = patient.address
        return {
            "shipment_id": shipment_id,
            "device_id": device_id,
            "ship_to": f"{a.street}, {a.city}, {a.state} {a.zip_code}",
        }
