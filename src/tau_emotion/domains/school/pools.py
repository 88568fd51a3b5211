"""Name, address and contact pools. Each database draws from its own family-name pool, zip
codes, phone area codes and email domains, so no personal identifier occurs in both."""

from __future__ import annotations

from tau_emotion.domains.common import PeoplePools
from tau_emotion.domains.kit import names

FIRST_NAMES = names.given("school.children")
ADULT_FEMALE_NAMES = names.given("school.women")
ADULT_MALE_NAMES = names.given("school.men")
ADULT_FIRST_NAMES = ADULT_FEMALE_NAMES + ADULT_MALE_NAMES
TRAIN_LAST_NAMES = names.family("school.train")
EVAL_LAST_NAMES = names.family("school.eval")


TRAIN_POOLS = PeoplePools(
    last_names=TRAIN_LAST_NAMES,
    zip_codes=("02134", "02135", "02445", "02446", "02458", "02459", "02467"),
    area_codes=("617", "857"),
    email_domains=names.email_domains("school.train"),
)
EVAL_POOLS = PeoplePools(
    last_names=EVAL_LAST_NAMES,
    zip_codes=("01002", "01003", "01060", "01062", "01035", "01038", "01075"),
    area_codes=("413", "774"),
    email_domains=names.email_domains("school.eval"),
)
