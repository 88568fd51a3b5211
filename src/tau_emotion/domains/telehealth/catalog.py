"""Fixed reference data the generator draws from: places, plans, drugs, conditions.

Everything here is invented for the benchmark (fictional payers, pharmacies and people);
drug names and interaction pairs follow common clinical knowledge only closely enough to
read naturally.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal, NamedTuple

from tau_emotion.domains.common import money
from tau_emotion.domains.kit import names
from tau_emotion.domains.telehealth.db import DeviceKind, Specialty, VisitType

# The tables below are laid out by hand for reading; keep the formatter off them.
# fmt: off
FIRST_NAMES = names.given("telehealth")
LAST_NAMES = names.family("telehealth")
STREETS = (
    "Alder St", "Birch Ave", "Cedar Ln", "Dogwood Dr", "Elm St", "Fir Ct", "Garnet Way",
    "Harbor Blvd", "Iris Pl", "Juniper Rd", "Kestrel Ave", "Laurel St", "Madrona Dr",
    "Northgate Rd", "Oak Hollow Ln", "Pine Ridge Rd", "Quarry St", "Redwood Ave",
    "Sagebrush Trl", "Tamarack Dr", "Union St", "Vista Ave", "Willow Bend Rd", "Yarrow Ct",
)
EMAIL_DOMAINS = names.email_domains("example")


class City(NamedTuple):
    name: str
    state: str
    zips: tuple[str, ...]
    area_codes: tuple[str, ...]


CITIES = (
    City("Sacramento", "CA", ("95814", "95816", "95818"), ("916",)),
    City("Oakland", "CA", ("94607", "94610", "94612"), ("510",)),
    City("San Diego", "CA", ("92101", "92103", "92116"), ("619", "858")),
    City("Fresno", "CA", ("93701", "93704", "93721"), ("559",)),
    City("Portland", "OR", ("97205", "97212", "97214"), ("503", "971")),
    City("Eugene", "OR", ("97401", "97403", "97405"), ("541",)),
    City("Seattle", "WA", ("98101", "98103", "98115"), ("206",)),
    City("Spokane", "WA", ("99201", "99203", "99205"), ("509",)),
    City("Tacoma", "WA", ("98402", "98405", "98406"), ("253",)),
    City("Phoenix", "AZ", ("85004", "85006", "85013"), ("602",)),
    City("Tucson", "AZ", ("85701", "85705", "85719"), ("520",)),
    City("Reno", "NV", ("89501", "89503", "89509"), ("775",)),
    City("Las Vegas", "NV", ("89101", "89104", "89117"), ("702",)),
    City("Denver", "CO", ("80202", "80205", "80218"), ("303", "720")),
    City("Boulder", "CO", ("80302", "80304"), ("303",)),
)


class Plan(NamedTuple):
    """An insurance plan as the database keeps it (`db.InsurancePlan`, same fields)."""

    plan_id: str
    payer: str
    plan_name: str
    accepted: bool
    covers_telehealth: bool
    video_copay: Decimal
    phone_copay: Decimal
    in_person_copay: Decimal


# One row a plan; the copays last, in whole dollars: video, phone, in-person follow-up.
_PLAN_ROWS: tuple[tuple[str, str, str, bool, bool, int, int, int], ...] = (
    ("PLN-BCG", "Bluecrest Health", "PPO Gold", True, True, 20, 15, 30),
    ("PLN-BCS", "Bluecrest Health", "HMO Select", True, True, 10, 10, 25),
    ("PLN-SMS", "Summit Mutual", "Silver PPO", True, True, 35, 25, 45),
    ("PLN-EVG", "Evergreen Care", "HMO Standard", True, True, 15, 15, 20),
    ("PLN-CCP", "Cascade Community Plan", "Medicaid Managed Care", True, True, 0, 0, 0),
    ("PLN-HSA", "Horizon Senior", "Advantage Plus", True, True, 5, 5, 15),
    ("PLN-TNB", "TrueNorth", "Basic HDHP", True, False, 0, 0, 60),
    ("PLN-PDE", "Pinnacle Direct", "EPO Value", False, False, 0, 0, 0),
)
PLANS = tuple(
    Plan(plan_id, payer, name, accepted, covers, money(video), money(phone), money(in_person))
    for plan_id, payer, name, accepted, covers, video, phone, in_person in _PLAN_ROWS
)


class DrugInfo(NamedTuple):
    name: str
    drug_class: str
    schedule: str | None
    otc: bool
    strengths: tuple[str, ...]
    directions: str


DRUGS = (
    DrugInfo("lisinopril", "ACE inhibitor", None, False, ("10 mg", "20 mg"), "1 tablet daily"),
    DrugInfo("amlodipine", "calcium channel blocker", None, False, ("5 mg", "10 mg"),
             "1 tablet daily"),
    DrugInfo("losartan", "angiotensin receptor blocker", None, False, ("50 mg", "100 mg"),
             "1 tablet daily"),
    DrugInfo("spironolactone", "potassium-sparing diuretic", None, False, ("25 mg",),
             "1 tablet daily"),
    DrugInfo("metoprolol", "beta blocker", None, False, ("25 mg", "50 mg"),
             "1 tablet twice daily"),
    DrugInfo("verapamil", "calcium channel blocker", None, False, ("120 mg",),
             "1 tablet daily"),
    DrugInfo("atorvastatin", "statin", None, False, ("20 mg", "40 mg"), "1 tablet at bedtime"),
    DrugInfo("simvastatin", "statin", None, False, ("20 mg",), "1 tablet at bedtime"),
    DrugInfo("warfarin", "anticoagulant", None, False, ("5 mg",), "as directed by INR clinic"),
    DrugInfo("apixaban", "anticoagulant", None, False, ("5 mg",), "1 tablet twice daily"),
    DrugInfo("metformin", "biguanide", None, False, ("500 mg", "1000 mg"),
             "1 tablet twice daily with meals"),
    DrugInfo("glipizide", "sulfonylurea", None, False, ("5 mg",), "1 tablet before breakfast"),
    DrugInfo("levothyroxine", "thyroid hormone", None, False, ("50 mcg", "75 mcg", "100 mcg"),
             "1 tablet every morning on an empty stomach"),
    DrugInfo("sertraline", "SSRI", None, False, ("50 mg", "100 mg"), "1 tablet daily"),
    DrugInfo("fluoxetine", "SSRI", None, False, ("20 mg",), "1 capsule every morning"),
    DrugInfo("bupropion", "antidepressant", None, False, ("150 mg",), "1 tablet every morning"),
    DrugInfo("alprazolam", "benzodiazepine", "IV", False, ("0.5 mg",),
             "1 tablet up to twice daily as needed"),
    DrugInfo("lorazepam", "benzodiazepine", "IV", False, ("1 mg",),
             "1 tablet at bedtime as needed"),
    DrugInfo("zolpidem", "sedative-hypnotic", "IV", False, ("5 mg", "10 mg"),
             "1 tablet at bedtime as needed"),
    DrugInfo("methylphenidate", "stimulant", "II", False, ("10 mg", "20 mg"),
             "1 tablet every morning"),
    DrugInfo("tramadol", "opioid analgesic", "IV", False, ("50 mg",),
             "1 tablet every 6 hours as needed"),
    DrugInfo("albuterol inhaler", "bronchodilator", None, False, ("90 mcg",),
             "2 puffs every 4 to 6 hours as needed"),
    DrugInfo("fluticasone-salmeterol", "inhaled steroid combination", None, False,
             ("250/50 mcg",), "1 inhalation twice daily"),
    DrugInfo("montelukast", "leukotriene blocker", None, False, ("10 mg",),
             "1 tablet every evening"),
    DrugInfo("tretinoin cream", "topical retinoid", None, False, ("0.05%",),
             "apply a thin layer at bedtime"),
    DrugInfo("doxycycline", "tetracycline antibiotic", None, False, ("100 mg",),
             "1 capsule twice daily"),
    DrugInfo("clarithromycin", "macrolide antibiotic", None, False, ("500 mg",),
             "1 tablet twice daily"),
    DrugInfo("triamcinolone cream", "topical steroid", None, False, ("0.1%",),
             "apply twice daily to affected areas"),
    DrugInfo("ibuprofen", "NSAID", None, True, (), ""),
    DrugInfo("naproxen", "NSAID", None, True, (), ""),
    DrugInfo("aspirin", "antiplatelet / NSAID", None, True, (), ""),
    DrugInfo("acetaminophen", "analgesic", None, True, (), ""),
    DrugInfo("diphenhydramine", "antihistamine", None, True, (), ""),
    DrugInfo("calcium carbonate", "antacid / supplement", None, True, (), ""),
    DrugInfo("st. john's wort", "herbal supplement", None, True, (), ""),
)

# (drug, drug, severity, effect); the generator makes each pair symmetric.
INTERACTIONS: tuple[tuple[str, str, Literal["major", "moderate"], str], ...] = (
    ("warfarin", "ibuprofen", "major", "raises bleeding risk"),
    ("warfarin", "naproxen", "major", "raises bleeding risk"),
    ("warfarin", "aspirin", "major", "raises bleeding risk"),
    ("warfarin", "clarithromycin", "major", "raises warfarin levels and bleeding risk"),
    ("apixaban", "aspirin", "major", "raises bleeding risk"),
    ("warfarin", "apixaban", "major", "duplicate anticoagulation, high bleeding risk"),
    ("apixaban", "ibuprofen", "moderate", "may raise bleeding risk"),
    ("simvastatin", "clarithromycin", "major", "raises statin levels and risk of muscle injury"),
    ("atorvastatin", "clarithromycin", "major", "raises statin levels and risk of muscle injury"),
    ("simvastatin", "verapamil", "moderate", "raises statin levels"),
    ("metoprolol", "verapamil", "major", "may slow the heart rate too much"),
    ("sertraline", "tramadol", "major", "risk of serotonin syndrome and seizures"),
    ("fluoxetine", "tramadol", "major", "risk of serotonin syndrome and seizures"),
    ("sertraline", "st. john's wort", "major", "risk of serotonin syndrome"),
    ("sertraline", "fluoxetine", "major", "risk of serotonin syndrome"),
    ("fluoxetine", "st. john's wort", "major", "risk of serotonin syndrome"),
    ("bupropion", "tramadol", "major", "lowers the seizure threshold"),
    ("alprazolam", "tramadol", "major", "additive sedation and breathing suppression"),
    ("lorazepam", "tramadol", "major", "additive sedation and breathing suppression"),
    ("zolpidem", "alprazolam", "major", "additive sedation"),
    ("zolpidem", "lorazepam", "major", "additive sedation"),
    ("lisinopril", "spironolactone", "moderate", "may raise potassium"),
    ("losartan", "spironolactone", "moderate", "may raise potassium"),
    ("lisinopril", "ibuprofen", "moderate", "may reduce blood-pressure control and kidney flow"),
    ("losartan", "naproxen", "moderate", "may reduce blood-pressure control and kidney flow"),
    ("levothyroxine", "calcium carbonate", "moderate", "reduces levothyroxine absorption"),
    ("sertraline", "ibuprofen", "moderate", "may raise bleeding risk"),
    ("metformin", "clarithromycin", "moderate", "may affect blood sugar"),
    ("diphenhydramine", "zolpidem", "moderate", "additive drowsiness"),
)


class Condition(NamedTuple):
    name: str
    specialty: Specialty
    drugs: tuple[str, ...]
    device: DeviceKind | None
    summaries: tuple[str, ...]
    follow_ups: tuple[str, ...]


CONDITIONS = (
    Condition(
        "hypertension", "primary_care", ("lisinopril", "amlodipine", "losartan", "metoprolol"),
        "blood_pressure_cuff",
        ("Hypertension follow-up. Home readings reviewed; regimen unchanged.",
         "Blood pressure above goal at recent checks. Dose adjusted; home monitoring continued.",
         "Hypertension stable. Labs ordered for kidney function and potassium."),
        ("video follow-up in 3 months", "in-person follow-up in 4 weeks"),
    ),
    Condition(
        "type 2 diabetes", "endocrinology", ("metformin", "glipizide"), "glucometer",
        ("Type 2 diabetes review. A1c discussed; continue current medications.",
         "Diabetes follow-up. Glucose log reviewed; diet counselling provided.",
         "New glucometer set up for remote monitoring; education completed."),
        ("video follow-up in 3 months", "in-person follow-up in 6 weeks for foot exam"),
    ),
    Condition(
        "hypothyroidism", "endocrinology", ("levothyroxine",), None,
        ("Hypothyroidism follow-up. TSH within range on current dose.",
         "Fatigue discussed; thyroid labs ordered."),
        ("video follow-up in 6 months",),
    ),
    Condition(
        "depression", "behavioral_health", ("sertraline", "fluoxetine", "bupropion"), None,
        ("Depression follow-up. Mood improving; continue medication and weekly therapy.",
         "Medication check. Mild side effects reviewed; plan unchanged."),
        ("video follow-up in 4 weeks", "video follow-up in 8 weeks"),
    ),
    Condition(
        "anxiety", "behavioral_health", ("sertraline", "alprazolam"), None,
        ("Generalized anxiety follow-up. Coping skills reviewed; medication continued.",),
        ("video follow-up in 6 weeks",),
    ),
    Condition(
        "insomnia", "primary_care", ("zolpidem",), None,
        ("Insomnia visit. Sleep hygiene reviewed; short-term medication started.",),
        ("video follow-up in 4 weeks",),
    ),
    Condition(
        "ADHD", "behavioral_health", ("methylphenidate",), None,
        ("ADHD medication check. Focus improved; appetite and sleep reviewed.",),
        ("video follow-up in 3 months",),
    ),
    Condition(
        "hyperlipidemia", "cardiology", ("atorvastatin", "simvastatin"), None,
        ("Cholesterol follow-up. Lipid panel improved on statin.",),
        ("video follow-up in 6 months",),
    ),
    Condition(
        "atrial fibrillation", "cardiology", ("warfarin", "apixaban", "metoprolol"),
        "blood_pressure_cuff",
        ("Atrial fibrillation follow-up. Rate controlled; anticoagulation continued.",
         "Palpitations reviewed; event monitor results discussed."),
        ("in-person follow-up in 4 weeks", "video follow-up in 3 months"),
    ),
    Condition(
        "heart failure", "cardiology", ("spironolactone", "metoprolol", "lisinopril"),
        "weight_scale",
        ("Heart failure follow-up. Daily weights stable; fluid guidance reviewed.",),
        ("in-person follow-up in 4 weeks",),
    ),
    Condition(
        "asthma", "pulmonology", ("albuterol inhaler", "fluticasone-salmeterol", "montelukast"),
        None,
        ("Asthma follow-up. Symptoms controlled; inhaler technique reviewed.",),
        ("video follow-up in 6 months",),
    ),
    Condition(
        "COPD", "pulmonology", ("albuterol inhaler", "fluticasone-salmeterol"), "pulse_oximeter",
        ("COPD follow-up. Oxygen saturation log reviewed; action plan updated.",),
        ("in-person follow-up in 8 weeks for spirometry",),
    ),
    Condition(
        "acne", "dermatology", ("tretinoin cream", "doxycycline"), None,
        ("Acne follow-up by photo review. Improvement noted; continue topical therapy.",),
        ("video follow-up in 8 weeks",),
    ),
    Condition(
        "eczema", "dermatology", ("triamcinolone cream",), None,
        ("Eczema flare reviewed by video. Topical steroid and moisturiser plan given.",),
        ("in-person follow-up in 6 weeks for skin check",),
    ),
    Condition(
        "back pain", "primary_care", ("tramadol",), None,
        ("Low back pain visit. Stretching plan and short-term pain control discussed.",),
        ("video follow-up in 2 weeks",),
    ),
)

DEVICE_MODELS: dict[DeviceKind, str] = {
    "blood_pressure_cuff": "PulseLink BP-200",
    "glucometer": "GlucoSync One",
    "pulse_oximeter": "OxiTrack Mini",
    "weight_scale": "BalanceHome Scale",
}
SPECIALTY_COUNTS: tuple[tuple[Specialty, int], ...] = (
    ("primary_care", 8),
    ("behavioral_health", 4),
    ("dermatology", 3),
    ("cardiology", 3),
    ("endocrinology", 3),
    ("pulmonology", 3),
)
SPECIALTY_VISIT_TYPES: dict[Specialty, tuple[VisitType, ...]] = {
    "primary_care": ("video", "phone", "in_person_follow_up"),
    "behavioral_health": ("video", "phone"),
    "dermatology": ("video", "in_person_follow_up"),
    "cardiology": ("video", "in_person_follow_up"),
    "endocrinology": ("video", "phone", "in_person_follow_up"),
    "pulmonology": ("video", "in_person_follow_up"),
}
PHARMACY_NAMES = (
    "Cedar Street Pharmacy", "Greenleaf Drug", "Harbor Apothecary", "Sunrise Pharmacy",
    "Mesa Community Pharmacy", "Northside Drug & Wellness", "Riverbend Pharmacy",
    "Pioneer Family Pharmacy", "Summit Rx", "Lakeside Drug",
)
MAIL_ORDER_PHARMACIES = ("RxPost Mail Pharmacy", "ParcelMeds Home Delivery")
# fmt: on
