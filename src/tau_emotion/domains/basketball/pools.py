"""Name, address and contact pools. Each database draws from its own family-name pool, zip
codes, phone area codes and email domains, so no personal identifier occurs in both."""

from __future__ import annotations

from tau_emotion.domains.common import PeoplePools
from tau_emotion.domains.kit import names

FIRST_NAMES = names.given("basketball")
CHILD_NAMES = names.given("basketball.children")
TRAIN_LAST_NAMES = names.family("basketball.train")
EVAL_LAST_NAMES = names.family("basketball.eval")


TRAIN_POOLS = PeoplePools(
    last_names=TRAIN_LAST_NAMES,
    zip_codes=("97201", "97202", "97205", "97209", "97211", "97214", "97217", "97219"),
    area_codes=("503", "971"),
    email_domains=names.email_domains("basketball.train"),
)
EVAL_POOLS = PeoplePools(
    last_names=EVAL_LAST_NAMES,
    zip_codes=("98101", "98103", "98105", "98109", "98112", "98115", "98118", "98122"),
    area_codes=("206", "425"),
    email_domains=names.email_domains("basketball.eval"),
)
