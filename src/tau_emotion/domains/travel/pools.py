"""Fixed pools for the generator: the two catalogues (train and eval); names come from the
kit's shared pool (`kit/names.json`).

The two databases sell different destinations and draw customers from disjoint surname
pools, area codes, zip codes, card ranges and id ranges, so nothing identifies the same
person or record in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.kit import names

FIRST_NAMES = names.given("travel")
CHILD_NAMES = names.given("travel.children")

SURNAMES_TRAIN = names.family("travel.train")
SURNAMES_EVAL = names.family("travel.eval")

EMAIL_DOMAINS = names.email_domains("example")

# (code, name, occupancy, supplement per night at a 4-star hotel)
ROOM_TYPES = (
    ("classic_double", "Classic Double", 2, 0.0),
    ("superior_double", "Superior Double", 2, 40.0),
    ("family_suite", "Family Suite", 4, 85.0),
    ("single", "Single Room", 1, 35.0),
)


@dataclass(frozen=True)
class TourSpec:
    name: str
    weekdays: tuple[str, ...]
    hours: float
    price: float
    min_age: int
    capacity: int


@dataclass(frozen=True)
class PackageSpec:
    name: str
    nights: int
    base_price: float
    adults_only: bool
    highlights: str


@dataclass(frozen=True)
class DestinationSpec:
    city: str
    country: str
    hotel: str
    stars: int
    packages: tuple[PackageSpec, ...]
    tours: tuple[TourSpec, ...]


DAILY = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEKEND = ("saturday", "sunday")
MWF = ("monday", "wednesday", "friday")
TTS = ("tuesday", "thursday", "saturday")

TRAIN_CATALOGUE = (
    DestinationSpec(
        "Lisbon",
        "Portugal",
        "Casa do Miradouro",
        4,
        (
            PackageSpec("Lisbon Hills and Tiles", 5, 1290.0, False, "Alfama, Belem, Sintra day"),
            PackageSpec(
                "Lisbon Slow Food Week", 7, 1790.0, True, "Markets, wine bars, cooking class"
            ),
        ),
        (
            TourSpec("Sintra Palaces Day Trip", MWF, 8, 95.0, 6, 16),
            TourSpec("Fado Night in Alfama", DAILY, 3, 65.0, 12, 20),
            TourSpec("Tagus Sunset Sail", TTS, 2.5, 70.0, 0, 12),
        ),
    ),
    DestinationSpec(
        "Kyoto",
        "Japan",
        "Higashiyama Garden Inn",
        4,
        (
            PackageSpec("Kyoto Temples and Tea", 6, 2390.0, False, "Temples, tea ceremony, Nara"),
            PackageSpec("Autumn Kyoto Deluxe", 9, 3490.0, False, "Ryokan night, Arashiyama, Osaka"),
        ),
        (
            TourSpec("Fushimi Inari Dawn Hike", DAILY, 3, 55.0, 8, 14),
            TourSpec("Tea Ceremony in Gion", TTS, 2, 80.0, 10, 10),
            TourSpec("Nara Deer Park Day", MWF, 7, 110.0, 0, 18),
        ),
    ),
    DestinationSpec(
        "Reykjavik",
        "Iceland",
        "Hotel Nordurljos",
        3,
        (
            PackageSpec("Iceland Ring of Fire", 5, 1990.0, False, "Golden Circle, glaciers"),
            PackageSpec("Northern Lights Escape", 4, 1490.0, True, "Aurora hunts, lagoon spa"),
        ),
        (
            TourSpec("Glacier Walk", TTS, 6, 160.0, 12, 12),
            TourSpec("Whale Watching", DAILY, 3, 95.0, 0, 30),
            TourSpec("Lagoon Spa Evening", DAILY, 3, 85.0, 16, 20),
        ),
    ),
    DestinationSpec(
        "Marrakech",
        "Morocco",
        "Riad Zitoun",
        4,
        (
            PackageSpec("Marrakech Souks and Gardens", 5, 1090.0, False, "Medina, Majorelle"),
            PackageSpec("Desert and Atlas Adventure", 8, 1690.0, False, "Atlas, Sahara camp"),
        ),
        (
            TourSpec("Atlas Mountains Day Trek", MWF, 9, 85.0, 10, 14),
            TourSpec("Medina Food Walk", DAILY, 3, 55.0, 0, 12),
            TourSpec("Hot Air Balloon Sunrise", WEEKEND, 4, 220.0, 8, 8),
        ),
    ),
    DestinationSpec(
        "Cusco",
        "Peru",
        "Posada San Blas",
        3,
        (
            PackageSpec("Inca Trail Classic", 7, 2290.0, False, "Sacred Valley, Machu Picchu"),
            PackageSpec("Cusco and Rainbow Mountain", 5, 1590.0, False, "Altitude-paced highlands"),
        ),
        (
            TourSpec("Rainbow Mountain Hike", TTS, 12, 75.0, 14, 16),
            TourSpec("Sacred Valley Markets", DAILY, 8, 90.0, 0, 20),
            TourSpec("Chocolate Workshop", MWF, 2, 40.0, 6, 12),
        ),
    ),
)

EVAL_CATALOGUE = (
    DestinationSpec(
        "Dubrovnik",
        "Croatia",
        "Villa Lapad Bay",
        4,
        (
            PackageSpec("Dalmatian Coast Classic", 6, 1490.0, False, "Old Town walls, Korcula"),
            PackageSpec("Adriatic Island Hopper", 8, 1990.0, False, "Hvar, Mljet, sea kayaking"),
        ),
        (
            TourSpec("City Walls Walk", DAILY, 2, 45.0, 0, 20),
            TourSpec("Sea Kayak and Snorkel", TTS, 3, 75.0, 10, 12),
            TourSpec("Montenegro Bay Day Trip", MWF, 10, 120.0, 0, 24),
        ),
    ),
    DestinationSpec(
        "Hanoi",
        "Vietnam",
        "Old Quarter Lotus Hotel",
        4,
        (
            PackageSpec("Hanoi and Ha Long Bay", 7, 1690.0, False, "Old Quarter, bay cruise"),
            PackageSpec("Northern Vietnam Trek", 9, 2190.0, False, "Sapa rice terraces, homestay"),
        ),
        (
            TourSpec("Street Food Night Walk", DAILY, 3, 40.0, 0, 14),
            TourSpec("Ha Long Bay Kayak Day", TTS, 9, 130.0, 8, 16),
            TourSpec("Ninh Binh Cycling", MWF, 8, 85.0, 12, 12),
        ),
    ),
    DestinationSpec(
        "Cape Town",
        "South Africa",
        "Bo-Kaap Terrace Hotel",
        5,
        (
            PackageSpec(
                "Cape Town and Winelands", 7, 2490.0, False, "Table Mountain, Stellenbosch"
            ),
            PackageSpec(
                "Cape Safari Extension", 10, 3890.0, False, "Garden Route, private reserve"
            ),
        ),
        (
            TourSpec("Table Mountain Hike", DAILY, 5, 60.0, 10, 16),
            TourSpec("Winelands Tasting Day", TTS, 8, 140.0, 18, 14),
            TourSpec("Penguin Beach and Peninsula", MWF, 9, 110.0, 0, 20),
        ),
    ),
    DestinationSpec(
        "Santorini",
        "Greece",
        "Caldera Whitewash Suites",
        5,
        (
            PackageSpec("Santorini Sunsets", 5, 1890.0, True, "Oia, caldera cruise, wineries"),
            PackageSpec("Cyclades Family Week", 7, 2090.0, False, "Naxos, beaches, boat days"),
        ),
        (
            TourSpec("Caldera Sunset Cruise", DAILY, 5, 150.0, 0, 24),
            TourSpec("Volcanic Wine Tasting", MWF, 3, 95.0, 18, 12),
            TourSpec("Akrotiri Archaeology Walk", TTS, 3, 55.0, 6, 15),
        ),
    ),
    DestinationSpec(
        "Queenstown",
        "New Zealand",
        "Lakeside Alpine Lodge",
        3,
        (
            PackageSpec("Queenstown Adventure", 6, 2590.0, False, "Jet boats, gondola, Glenorchy"),
            PackageSpec("Fiordland Explorer", 8, 3190.0, False, "Milford Sound, glowworm caves"),
        ),
        (
            TourSpec("Shotover Jet Boat", DAILY, 1.5, 140.0, 5, 20),
            TourSpec("Milford Sound Cruise Day", MWF, 12, 210.0, 0, 24),
            TourSpec("Bungy Jump Experience", TTS, 3, 220.0, 16, 8),
        ),
    ),
)


@dataclass(frozen=True)
class Market:
    """Everything that differs between the two generated databases."""

    seed: int
    digit: str
    """Leading digit of every numeric id and of card and phone number blocks."""
    area_code: str
    zip_codes: tuple[str, ...]
    surnames: tuple[str, ...]
    catalogue: tuple[DestinationSpec, ...]
    card_range: tuple[int, int]


TRAIN_MARKET = Market(
    seed=70520,
    digit="1",
    area_code="617",
    zip_codes=("02108", "02114", "02116", "02118", "02130", "02134", "02139", "02143"),
    surnames=SURNAMES_TRAIN,
    catalogue=TRAIN_CATALOGUE,
    card_range=(1000, 4999),
)

EVAL_MARKET = Market(
    seed=70521,
    digit="5",
    area_code="312",
    zip_codes=("60601", "60605", "60607", "60610", "60614", "60618", "60622", "60640"),
    surnames=SURNAMES_EVAL,
    catalogue=EVAL_CATALOGUE,
    card_range=(5000, 9999),
)
