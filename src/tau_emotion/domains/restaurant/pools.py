"""Fixed word pools for the generator: names, streets, the menu and the two cities.

The two databases (train and eval) draw from disjoint surname pools, area codes, zip codes,
card-number ranges and id ranges, so that no person or id of one appears in the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_emotion.domains.kit import names

FIRST_NAMES = names.given("restaurant")

SURNAMES_TRAIN = names.family("restaurant.train")

SURNAMES_EVAL = names.family("restaurant.eval")

STREET_NAMES = (
    "Alder",
    "Birch",
    "Cedar",
    "Dogwood",
    "Elm",
    "Fir",
    "Hawthorn",
    "Juniper",
    "Larch",
    "Maple",
    "Oak",
    "Pine",
    "Quince",
    "Rowan",
    "Spruce",
    "Sycamore",
    "Willow",
    "Yew",
)
STREET_KINDS = ("St", "Ave", "Rd", "Ln", "Way", "Ct")

EMAIL_DOMAINS = names.email_domains("example")

ALLERGIES = ("peanuts", "tree_nuts", "shellfish", "gluten", "dairy", "egg", "soy", "sesame", "fish")

# (name, category, price, allergens, dietary tags)
MENU: tuple[tuple[str, str, float, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Charred Shishito Peppers", "starter", 9.50, ("sesame", "soy"), ("vegan", "gluten_free")),
    ("Burrata with Stone Fruit", "starter", 14.00, ("dairy",), ("vegetarian", "gluten_free")),
    ("Crispy Calamari", "starter", 13.50, ("shellfish", "gluten", "egg"), ()),
    ("Smoked Trout Dip", "starter", 12.00, ("fish", "dairy"), ("gluten_free",)),
    ("Roasted Beet Salad", "starter", 11.00, ("tree_nuts", "dairy"), ("vegetarian", "gluten_free")),
    ("Chicken Satay Skewers", "starter", 12.50, ("peanuts", "soy"), ("gluten_free",)),
    ("Wood-Fired Flatbread", "starter", 13.00, ("gluten", "dairy"), ("vegetarian",)),
    ("Miso Glazed Eggplant", "starter", 10.50, ("soy",), ("vegan",)),
    ("Ember Burger", "main", 19.00, ("gluten", "dairy", "egg", "sesame"), ()),
    ("Harissa Roast Chicken", "main", 24.50, ("dairy",), ("gluten_free",)),
    ("Seared Salmon", "main", 28.00, ("fish",), ("gluten_free",)),
    ("Shrimp Linguine", "main", 26.00, ("shellfish", "gluten", "dairy"), ()),
    ("Mushroom Risotto", "main", 22.00, ("dairy",), ("vegetarian", "gluten_free")),
    ("Grilled Ribeye", "main", 39.00, (), ("gluten_free",)),
    ("Chickpea Tagine", "main", 19.50, (), ("vegan", "gluten_free")),
    ("Pork Belly Ramen", "main", 21.00, ("gluten", "soy", "egg"), ()),
    ("Cauliflower Steak", "main", 18.50, ("tree_nuts",), ("vegan", "gluten_free")),
    ("Lamb Kofta Plate", "main", 25.00, ("dairy", "sesame"), ()),
    ("Tofu Green Curry", "main", 18.00, ("soy",), ("vegan", "gluten_free")),
    ("Fish and Chips", "main", 20.50, ("fish", "gluten", "egg"), ()),
    ("Truffle Fries", "side", 8.50, ("dairy",), ("vegetarian", "gluten_free")),
    ("Garlic Greens", "side", 7.00, (), ("vegan", "gluten_free")),
    ("Sourdough and Butter", "side", 5.50, ("gluten", "dairy"), ("vegetarian",)),
    ("Sweet Potato Mash", "side", 6.50, ("dairy",), ("vegetarian", "gluten_free")),
    ("Sesame Slaw", "side", 6.00, ("sesame", "egg"), ("vegetarian", "gluten_free")),
    ("Dark Chocolate Torte", "dessert", 10.00, ("dairy", "egg"), ("vegetarian", "gluten_free")),
    ("Sticky Toffee Pudding", "dessert", 9.50, ("gluten", "dairy", "egg"), ("vegetarian",)),
    ("Coconut Sorbet", "dessert", 7.50, (), ("vegan", "gluten_free")),
    ("Pistachio Cannoli", "dessert", 9.00, ("tree_nuts", "gluten", "dairy"), ("vegetarian",)),
    ("Peanut Butter Pie", "dessert", 9.00, ("peanuts", "dairy", "gluten", "egg"), ("vegetarian",)),
    ("House Lemonade", "drink", 4.50, (), ("vegan", "gluten_free")),
    ("Hibiscus Iced Tea", "drink", 4.00, (), ("vegan", "gluten_free")),
    ("Cold Brew Coffee", "drink", 5.00, (), ("vegan", "gluten_free")),
    ("Ginger Beer", "drink", 4.50, (), ("vegan", "gluten_free")),
    ("Oat Milk Chai", "drink", 5.50, ("gluten",), ("vegan",)),
)


@dataclass(frozen=True)
class City:
    """Everything that differs between the two generated databases."""

    seed: int
    digit: str
    """Leading digit of every numeric id, card number range and phone exchange block."""
    city: str
    area_code: str
    zip_codes: tuple[str, ...]
    surnames: tuple[str, ...]
    locations: tuple[tuple[str, str, str], ...]
    """(name, street, zip) of each location."""
    card_range: tuple[int, int]
    """Inclusive range of card last-4 numbers, disjoint between the databases."""


TRAIN_CITY = City(
    seed=20250614,
    digit="1",
    city="Portland",
    area_code="503",
    zip_codes=("97201", "97202", "97205", "97209", "97210", "97212", "97214", "97217"),
    surnames=SURNAMES_TRAIN,
    locations=(
        ("Ember & Vine Pearl District", "1120 NW Glisan St", "97209"),
        ("Ember & Vine Hawthorne", "3524 SE Hawthorne Blvd", "97214"),
        ("Ember & Vine Mississippi", "4011 N Mississippi Ave", "97217"),
    ),
    card_range=(1000, 4999),
)

EVAL_CITY = City(
    seed=20250615,
    digit="5",
    city="Austin",
    area_code="512",
    zip_codes=("78701", "78702", "78703", "78704", "78705", "78721", "78722", "78751"),
    surnames=SURNAMES_EVAL,
    locations=(
        ("Ember & Vine South Congress", "1408 S Congress Ave", "78704"),
        ("Ember & Vine East Sixth", "1901 E 6th St", "78702"),
        ("Ember & Vine Hyde Park", "4300 Duval St", "78751"),
    ),
    card_range=(5000, 9999),
)
