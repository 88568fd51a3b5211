"""Static name and place lists the generator draws customers from."""

from __future__ import annotations

from tau_emotion.domains.kit import names

FIRST_NAMES = names.given("retail")

LAST_NAMES = names.family("retail")

STREETS: tuple[str, ...] = (
    "Maple Avenue",
    "Oak Street",
    "Cedar Lane",
    "Harbor View Road",
    "Willow Court",
    "Pine Ridge Drive",
    "Elm Street",
    "Sunset Boulevard",
    "Lakeview Terrace",
    "Mill Road",
    "Chestnut Street",
    "Highland Avenue",
    "Riverside Drive",
    "Park Place",
    "Orchard Way",
    "Birch Hollow",
    "Meadow Lane",
    "Garden Street",
    "Summit Avenue",
    "Bayshore Road",
    "Magnolia Drive",
    "Church Street",
    "Prospect Avenue",
    "Spring Street",
    "Valley Road",
    "Franklin Street",
)

# (city, state, zip prefix, phone area code)
CITIES: tuple[tuple[str, str, str, str], ...] = (
    ("Portland", "OR", "972", "503"),
    ("Seattle", "WA", "981", "206"),
    ("Austin", "TX", "787", "512"),
    ("Denver", "CO", "802", "303"),
    ("Chicago", "IL", "606", "312"),
    ("Boston", "MA", "021", "617"),
    ("Atlanta", "GA", "303", "404"),
    ("Phoenix", "AZ", "850", "602"),
    ("Minneapolis", "MN", "554", "612"),
    ("Nashville", "TN", "372", "615"),
    ("San Diego", "CA", "921", "619"),
    ("Oakland", "CA", "946", "510"),
    ("Pittsburgh", "PA", "152", "412"),
    ("Raleigh", "NC", "276", "919"),
    ("Madison", "WI", "537", "608"),
    ("Tucson", "AZ", "857", "520"),
    ("Columbus", "OH", "432", "614"),
    ("Richmond", "VA", "232", "804"),
    ("Salt Lake City", "UT", "841", "801"),
    ("Albuquerque", "NM", "871", "505"),
    ("Brooklyn", "NY", "112", "718"),
    ("Miami", "FL", "331", "305"),
    ("New Orleans", "LA", "701", "504"),
    ("Kansas City", "MO", "641", "816"),
)

CARD_BRANDS: tuple[str, ...] = ("Visa", "Mastercard", "Amex", "Discover")
CARRIERS: tuple[str, ...] = ("UPS", "FedEx", "USPS")
