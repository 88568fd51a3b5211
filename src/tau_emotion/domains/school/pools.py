"""Name, address and contact pools. Each database draws from its own family-name pool, zip
codes, phone area codes and email domains, so no personal identifier occurs in both."""

from __future__ import annotations

from tau_emotion.domains.common import PeoplePools


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split())


FIRST_NAMES = _names(
    "Ada Adrian Aisha Alma Amir Ana Arjun Ben Bianca Caleb Camila Chloe Daniel Dara Diego "
    "Elena Eli Emma Ethan Farah Felix Gabriel Grace Hana Hugo Imani Isaac Ivy Jada Jonah "
    "Julia Kai Kenji Lara Leo Lina Lucas Maya Mateo Mila Nadia Noah Nora Omar Owen Priya "
    "Quinn Rafael Rosa Ruby Samir Sara Theo Tessa Uma Victor Wes Yara Yusuf Zoe"
)
ADULT_FEMALE_NAMES = _names(
    "Adele Andrea Beatriz Carla Claire Denise Elaine Gloria Helen Irene Janet Joanna Karen "
    "Laura Lorna Maria Monica Nicole Paula Rachel Renee Sandra Sonia Teresa Valerie Wendy"
)
ADULT_MALE_NAMES = _names(
    "Alan Brian Carlos Dennis Eduardo Frank Gregory Hector James Keith Leon Marcus Michael "
    "Nathan Patrick Peter Raymond Robert Simon Steven Thomas Vincent"
)
ADULT_FIRST_NAMES = ADULT_FEMALE_NAMES + ADULT_MALE_NAMES
TRAIN_LAST_NAMES = _names(
    "Abbott Acosta Baird Barrow Benson Brandt Calder Carver Conley Cordova Dalton Dorsey "
    "Easton Ellison Farrow Fenwick Galloway Gentry Hale Harlow Hendrix Ibarra Jarvis "
    "Keane Kessler Lachance Lowell Macklin Marsh Mercado Nash Norwood Oakley Ortega Pace "
    "Pruitt Quinlan Radford Rinaldi Sanderson Sewell Slater Tanaka Thornton Underhill "
    "Vance Varga Whitlock Winslow Yardley"
)
EVAL_LAST_NAMES = _names(
    "Adeyemi Almeida Bancroft Bellamy Castellano Chen Dempsey Duarte Eriksen Esposito "
    "Fairbanks Flores Gallagher Greaves Haddad Hwang Iverson Jablonski Kaminski Kowalczyk "
    "Lindqvist Lombardi Mahoney Moreau Nakamura Novak Okafor Oyelaran Pellegrini Petrov "
    "Quintero Rasmussen Rosales Sato Sorensen Szabo Tremblay Tran Ueda Valdivia Vasquez "
    "Wojcik Whitaker Xu Yamada Yilmaz Zamora Zielinski Okonkwo Brennan"
)


TRAIN_POOLS = PeoplePools(
    last_names=TRAIN_LAST_NAMES,
    zip_codes=("02134", "02135", "02445", "02446", "02458", "02459", "02467"),
    area_codes=("617", "857"),
    email_domains=("mailbox.example", "inboxly.example", "postcard.example"),
)
EVAL_POOLS = PeoplePools(
    last_names=EVAL_LAST_NAMES,
    zip_codes=("01002", "01003", "01060", "01062", "01035", "01038", "01075"),
    area_codes=("413", "774"),
    email_domains=("webmail.example", "letterbox.example", "homenet.example"),
)
