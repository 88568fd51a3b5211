"""Name, address and contact pools. Each database draws from its own family-name pool, zip
codes, phone area codes and email domains, so no personal identifier occurs in both."""

from __future__ import annotations

from tau_emotion.domains.common import PeoplePools


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split())


FIRST_NAMES = _names(
    "Aaron Abby Adam Alicia Andre Angela Ben Bianca Brandon Carmen Chris Claudia Colin Dana "
    "Darius Deborah Derek Elena Eric Erin Felipe Fiona Gavin Grace Hannah Ian Isabel Jamal "
    "Jasmine Jeff Jenna Jorge Julie Kevin Kim Kyle Laila Leah Lena Logan Luis Maggie Malik "
    "Marta Megan Miles Monique Nate Nina Omar Paige Pedro Priya Quentin Rachel Ramon Rita "
    "Ryan Sabrina Scott Selena Shawn Tanya Terrence Tina Trevor Vanessa Victor Wade Yolanda Zach"
)
CHILD_NAMES = _names(
    "Aiden Amara Ava Caleb Chloe Elijah Ella Ezra Finn Gianna Harper Isaiah Jayden Kai Layla "
    "Leo Liam Lucia Mason Maya Mia Milo Nia Noah Nova Owen Ruby Sofia Theo Zara"
)
TRAIN_LAST_NAMES = _names(
    "Alvarez Archer Barnett Bishop Boone Bradford Carrillo Chandler Coleman Crane Delgado "
    "Dillard Espinoza Faulkner Fitzgerald Forbes Garrett Gibbs Guthrie Hammond Hawkins Holloway "
    "Ingram Jennings Keller Lambert Lowery Maddox Mcbride Medina Mercer Nolan Osborne Padilla "
    "Pennington Pittman Quarles Reeves Robbins Salinas Shepard Sutton Talley Thornberry "
    "Vaughn Wakefield Whitfield Wilder York Zavala"
)
EVAL_LAST_NAMES = _names(
    "Abernathy Aguilar Ballard Beckett Benitez Blackwood Cabrera Castillo Cortez Donovan "
    "Dunbar Escobar Fairchild Fontaine Gallo Gutierrez Haskins Huang Ibsen Iqbal Jovanovic "
    "Kapoor Kendrick Landry Lozano Marchetti Montoya Navarro Nguyen Ochoa Ostrowski Pacheco "
    "Prescott Quiroga Ramsey Rivera Saldana Sheffield Stroud Tolliver Underwood Valencia "
    "Vickers Wainwright Whitmore Yates Yoon Zeller Zuniga Mbeki"
)


TRAIN_POOLS = PeoplePools(
    last_names=TRAIN_LAST_NAMES,
    zip_codes=("97201", "97202", "97205", "97209", "97211", "97214", "97217", "97219"),
    area_codes=("503", "971"),
    email_domains=("fastmail.example", "courtside.example", "pdxmail.example"),
)
EVAL_POOLS = PeoplePools(
    last_names=EVAL_LAST_NAMES,
    zip_codes=("98101", "98103", "98105", "98109", "98112", "98115", "98118", "98122"),
    area_codes=("206", "425"),
    email_domains=("emerald.example", "soundmail.example", "rainymail.example"),
)
