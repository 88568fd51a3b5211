"""The telehealth tool set: one class combining the tool groups, each in its own module."""

from __future__ import annotations

from tau_emotion.domains.telehealth.tools_devices import DeviceTools
from tau_emotion.domains.telehealth.tools_patients import PatientTools
from tau_emotion.domains.telehealth.tools_pharmacy import PharmacyTools
from tau_emotion.domains.telehealth.tools_visits import VisitTools


class TelehealthTools(PatientTools, VisitTools, PharmacyTools, DeviceTools):
    """Tools of the clinic's patient-support desk (billing tools come in through VisitTools)."""


AUTH_TOOLS = ("find_patient_by_email", "find_patient_by_phone", "find_patient_by_name_and_dob")
