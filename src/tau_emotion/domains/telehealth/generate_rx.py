"""Seeded prescriptions (with refill history) and remote-monitoring devices (with uploads)."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Literal, NamedTuple

from tau_emotion.domains.telehealth import catalog
from tau_emotion.domains.telehealth.db import (
    Appointment,
    Device,
    DeviceKind,
    DeviceShipment,
    DeviceUpload,
    Pharmacy,
    Prescription,
    Provider,
    RefillRequest,
    TelehealthDB,
)
from tau_emotion.domains.telehealth.generate_care import Person
from tau_emotion.domains.telehealth.rules import NOW, TODAY

DRUG_INFO = {d.name: d for d in catalog.DRUGS}
RxStatus = Literal["active", "expired", "discontinued"]
STATUS_ODDS: tuple[RxStatus, ...] = ("active",) * 72 + ("expired",) * 14 + ("discontinued",) * 14


def add_prescriptions(
    rng: random.Random,
    care: TelehealthDB,
    person: Person,
    providers: dict[str, Provider],
    pharmacies: dict[str, Pharmacy],
    visits: list[Appointment],
) -> None:
    patient = person.patient
    pharmacy = _preferred_pharmacy(rng, patient.address.city, pharmacies)
    chosen: list[tuple[str, catalog.Condition]] = []
    for condition in person.conditions:
        picks = rng.sample(condition.drugs, min(len(condition.drugs), rng.choice((1, 1, 2))))
        chosen.extend((name, condition) for name in picks if name not in [c[0] for c in chosen])
    for name, condition in chosen:
        info = DRUG_INFO[name]
        seen = [
            providers[a.provider_id]
            for a in visits
            if providers[a.provider_id].specialty == condition.specialty
        ]
        local = [
            p
            for p in providers.values()
            if p.specialty == condition.specialty and patient.address.state in p.licensed_states
        ]
        prescriber = seen[0] if seen else rng.choice(local)
        status: RxStatus = rng.choice(STATUS_ODDS)
        controlled = info.schedule is not None
        days_supply = 90 if not controlled and rng.random() < 0.4 else 30
        if status == "expired":
            written = TODAY - timedelta(days=rng.randint(370, 600))
        else:
            written = TODAY - timedelta(days=rng.randint(20, 330))
        last_fill = max(written, TODAY - timedelta(days=rng.randint(0, days_supply + 15)))
        if status == "expired":
            last_fill = written + timedelta(days=rng.randint(0, 300))
        if info.schedule == "II":
            refills = 0
        elif controlled:
            refills = rng.randint(0, 2)
        else:
            refills = rng.choice((0, 1, 2, 2, 3, 3, 5, 11))
        strength = rng.choice(info.strengths)
        rid = prescribe(
            care,
            Prescribed(
                patient.patient_id, name, strength, prescriber.provider_id, pharmacy.pharmacy_id
            ),
            status,
            refills,
            days_supply,
            last_fill,
            written,
        )
        if status == "active" and refills > 0 and rng.random() < 0.08:
            # A refill already sent and not yet picked up: a second request is refused.
            sent_on = TODAY - timedelta(days=rng.randint(0, 2))
            _refill(care, rid, patient.patient_id, pharmacy, sent_on, "sent")
        elif status == "active" and rng.random() < 0.3:
            _refill(care, rid, patient.patient_id, pharmacy, last_fill, "filled")


class Prescribed(NamedTuple):
    """Who is prescribed what, by whom, filled where."""

    patient_id: str
    drug: str
    strength: str
    prescriber_id: str
    pharmacy_id: str


def prescribe(
    care: TelehealthDB,
    what: Prescribed,
    status: RxStatus,
    refills: int,
    days_supply: int,
    last_fill: date,
    written: date,
) -> str:
    """File a prescription under the next id; it runs a year from the day it was written."""
    rid = f"RX{len(care.prescriptions) + 1:05d}"
    care.prescriptions[rid] = Prescription(
        prescription_id=rid,
        patient_id=what.patient_id,
        drug=what.drug,
        strength=what.strength,
        directions=DRUG_INFO[what.drug].directions,
        prescriber_id=what.prescriber_id,
        pharmacy_id=what.pharmacy_id,
        status=status,
        refills_remaining=refills,
        days_supply=days_supply,
        last_fill_date=last_fill.isoformat(),
        expires_on=(written + timedelta(days=365)).isoformat(),
    )
    return rid


def _refill(
    care: TelehealthDB,
    rx_id: str,
    patient_id: str,
    pharmacy: Pharmacy,
    day: date,
    status: Literal["sent", "filled"],
) -> None:
    request_id = f"RR{len(care.refill_requests) + 1:05d}"
    care.refill_requests[request_id] = RefillRequest(
        request_id=request_id,
        prescription_id=rx_id,
        patient_id=patient_id,
        pharmacy_id=pharmacy.pharmacy_id,
        requested_on=day.isoformat(),
        status=status,
    )


def _preferred_pharmacy(rng: random.Random, city: str, pharmacies: dict[str, Pharmacy]) -> Pharmacy:
    local = [p for p in pharmacies.values() if p.address.city == city and p.kind == "retail"]
    mail = [p for p in pharmacies.values() if p.kind == "mail_order"]
    if not local or rng.random() < 0.2:
        return rng.choice(mail)
    return rng.choice(local)


def add_devices(rng: random.Random, care: TelehealthDB, person: Person) -> None:
    patient = person.patient
    for kind in _device_kinds(person):
        if rng.random() > 0.75:
            continue
        did = f"DV{len(care.devices) + 1:04d}"
        roll = rng.random()
        status = "returned" if roll < 0.05 else "replacement_pending" if roll < 0.1 else "active"
        care.devices[did] = Device(
            device_id=did,
            patient_id=patient.patient_id,
            kind=kind,
            model=catalog.DEVICE_MODELS[kind],
            serial=f"{kind[:2].upper()}{rng.randint(1000000, 9999999)}",
            status=status,
            enrolled_on=(TODAY - timedelta(days=rng.randint(30, 400))).isoformat(),
        )
        if status == "replacement_pending":
            sid = f"SHP{len(care.device_shipments) + 1:05d}"
            care.device_shipments[sid] = DeviceShipment(
                shipment_id=sid,
                device_id=did,
                patient_id=patient.patient_id,
                reason=rng.choice(("not_syncing", "damaged")),
                ship_to=patient.address,
                created_on=(TODAY - timedelta(days=rng.randint(1, 5))).isoformat(),
                status=rng.choice(("processing", "shipped")),
            )
        if status != "returned":
            _uploads(rng, care, did, kind)


def _uploads(rng: random.Random, care: TelehealthDB, device_id: str, kind: DeviceKind) -> None:
    # Most devices synced within the last day or two; about one in five has gone silent.
    silent = rng.random() < 0.22
    last = NOW - timedelta(hours=rng.randint(80, 480) if silent else rng.randint(1, 40))
    high = rng.random() < 0.12
    for k in range(6):
        taken = last - timedelta(days=k, minutes=rng.randint(0, 50))
        reading, flagged = _reading(rng, kind, high and k == 0)
        uid = f"UP{len(care.device_uploads) + 1:05d}"
        care.device_uploads[uid] = DeviceUpload(
            upload_id=uid,
            device_id=device_id,
            taken_at=taken.isoformat(timespec="minutes"),
            reading=reading,
            flagged=flagged,
        )


def _reading(rng: random.Random, kind: DeviceKind, out_of_range: bool) -> tuple[str, bool]:
    if kind == "blood_pressure_cuff":
        sys_ = rng.randint(168, 192) if out_of_range else rng.randint(112, 146)
        dia = rng.randint(98, 112) if out_of_range else rng.randint(68, 92)
        return f"{sys_}/{dia} mmHg, pulse {rng.randint(58, 96)}", out_of_range
    if kind == "glucometer":
        value = rng.randint(260, 340) if out_of_range else rng.randint(88, 180)
        return f"{value} mg/dL", out_of_range
    if kind == "pulse_oximeter":
        value = rng.randint(84, 88) if out_of_range else rng.randint(92, 99)
        return f"SpO2 {value}%, pulse {rng.randint(60, 104)}", out_of_range
    weight = rng.randint(1400, 2300) / 10
    gain = f" (up {rng.randint(35, 60) / 10:.1f} lb in 2 days)" if out_of_range else ""
    return f"{weight:.1f} lb{gain}", out_of_range


def _device_kinds(person: Person) -> list[DeviceKind]:
    kinds: list[DeviceKind] = []
    for condition in person.conditions:
        if condition.device and condition.device not in kinds:
            kinds.append(condition.device)
    return kinds
