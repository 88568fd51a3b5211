"""The shop's catalogue as static templates: each product lists its option axes.

A variant (item) is one combination of option values; its price is the product's base
price plus the deltas of its values. The generator expands these templates with a seeded
random choice of which combinations are stocked.
"""

from __future__ import annotations

from typing import NamedTuple


class Axis(NamedTuple):
    name: str
    values: tuple[tuple[str, int], ...]
    """(value, price delta in cents)."""


class ProductTemplate(NamedTuple):
    name: str
    category: str
    base_cents: int
    axes: tuple[Axis, ...]


def _axis(name: str, *values: str | tuple[str, int]) -> Axis:
    return Axis(name, tuple((v, 0) if isinstance(v, str) else v for v in values))


_SIZES = _axis("size", "S", "M", "L", "XL")
_SHOE = _axis("size", "7", "8", "9", "10", "11", "12")
_COLORS = _axis("color", "black", "navy", "grey", "white")

TEMPLATES: tuple[ProductTemplate, ...] = (
    ProductTemplate("Organic Cotton T-Shirt", "clothing", 2400, (_SIZES, _COLORS)),
    ProductTemplate(
        "Merino Crew Sweater",
        "clothing",
        8900,
        (_SIZES, _axis("color", "oatmeal", "forest", "charcoal")),
    ),
    ProductTemplate(
        "Waterproof Rain Jacket",
        "clothing",
        12900,
        (_SIZES, _axis("color", "yellow", "olive", "black")),
    ),
    ProductTemplate(
        "Slim Stretch Jeans",
        "clothing",
        6900,
        (_axis("waist", "30", "32", "34", "36"), _axis("length", "30", "32", "34")),
    ),
    ProductTemplate(
        "Fleece Hoodie",
        "clothing",
        5400,
        (_SIZES, _axis("color", "heather grey", "burgundy", "navy")),
    ),
    ProductTemplate(
        "Linen Button-Down Shirt",
        "clothing",
        5900,
        (_SIZES, _axis("color", "white", "sky blue", "sand")),
    ),
    ProductTemplate(
        "Trail Running Shoes",
        "footwear",
        11900,
        (_SHOE, _axis("color", "slate", "volt green", "black")),
    ),
    ProductTemplate(
        "Leather Chelsea Boots", "footwear", 17900, (_SHOE, _axis("color", "brown", "black"))
    ),
    ProductTemplate(
        "Canvas Sneakers", "footwear", 5900, (_SHOE, _axis("color", "white", "red", "navy"))
    ),
    ProductTemplate(
        "Wool House Slippers",
        "footwear",
        3900,
        (_axis("size", "S", "M", "L"), _axis("color", "grey", "camel")),
    ),
    ProductTemplate(
        "Commuter Backpack",
        "bags",
        9900,
        (_axis("capacity", ("20L", 0), ("28L", 1500)), _axis("color", "black", "olive", "sand")),
    ),
    ProductTemplate(
        "Weekender Duffel",
        "bags",
        13900,
        (_axis("material", ("canvas", 0), ("leather", 6000)), _axis("color", "tan", "black")),
    ),
    ProductTemplate(
        "Crossbody Sling Bag", "bags", 4900, (_axis("color", "black", "rust", "stone", "teal"),)
    ),
    ProductTemplate(
        "Hardshell Carry-On Suitcase",
        "bags",
        22900,
        (
            _axis("size", ("cabin", 0), ("medium", 4000)),
            _axis("color", "silver", "midnight", "coral"),
        ),
    ),
    ProductTemplate(
        "Wireless Noise-Cancelling Headphones",
        "electronics",
        24900,
        (
            _axis("color", "black", "silver", "midnight blue"),
            _axis("edition", ("standard", 0), ("pro", 5000)),
        ),
    ),
    ProductTemplate(
        "True Wireless Earbuds",
        "electronics",
        12900,
        (
            _axis("color", "white", "black", "sage"),
            _axis("case", ("standard", 0), ("wireless charging", 2000)),
        ),
    ),
    ProductTemplate(
        "Portable Bluetooth Speaker",
        "electronics",
        7900,
        (_axis("color", "black", "blue", "red", "sand"), _axis("size", ("mini", 0), ("max", 4000))),
    ),
    ProductTemplate(
        "Smart Fitness Watch",
        "electronics",
        19900,
        (
            _axis("case size", ("41mm", 0), ("45mm", 3000)),
            _axis("band", "sport", "woven", "leather"),
        ),
    ),
    ProductTemplate(
        "E-Reader",
        "electronics",
        13900,
        (
            _axis("storage", ("16GB", 0), ("32GB", 3000)),
            _axis("ads", ("with ads", 0), ("without ads", 2000)),
        ),
    ),
    ProductTemplate(
        "Mechanical Keyboard",
        "electronics",
        11900,
        (
            _axis("switch", "linear", "tactile", "clicky"),
            _axis("layout", ("tenkeyless", 0), ("full size", 1500)),
        ),
    ),
    ProductTemplate(
        "Wireless Mouse",
        "electronics",
        4900,
        (
            _axis("color", "graphite", "white", "rose"),
            _axis("grip", "right-handed", "ambidextrous"),
        ),
    ),
    ProductTemplate(
        "USB-C Power Bank",
        "electronics",
        3900,
        (_axis("capacity", ("10000mAh", 0), ("20000mAh", 2000)), _axis("color", "black", "white")),
    ),
    ProductTemplate(
        "Pour-Over Coffee Maker",
        "kitchen",
        4500,
        (
            _axis("capacity", ("3 cup", 0), ("6 cup", 800)),
            _axis("material", ("glass", 0), ("stainless", 1500)),
        ),
    ),
    ProductTemplate(
        "Electric Gooseneck Kettle",
        "kitchen",
        8900,
        (
            _axis("finish", "matte black", "brushed steel", "white"),
            _axis("capacity", ("0.9L", 0), ("1.2L", 1000)),
        ),
    ),
    ProductTemplate(
        "Cast Iron Skillet",
        "kitchen",
        3900,
        (_axis("diameter", ("8 inch", 0), ("10 inch", 1000), ("12 inch", 2000)),),
    ),
    ProductTemplate(
        "Chef's Knife",
        "kitchen",
        7900,
        (
            _axis("blade", ("6 inch", 0), ("8 inch", 1500)),
            _axis("handle", "walnut", "black composite"),
        ),
    ),
    ProductTemplate(
        "Stoneware Dinner Set",
        "kitchen",
        11900,
        (
            _axis("pieces", ("12 piece", 0), ("16 piece", 3000)),
            _axis("glaze", "speckled white", "slate", "sage"),
        ),
    ),
    ProductTemplate(
        "Insulated Water Bottle",
        "outdoor",
        2900,
        (
            _axis("capacity", ("500ml", 0), ("750ml", 400), ("1L", 800)),
            _axis("color", "black", "teal", "coral", "white"),
        ),
    ),
    ProductTemplate(
        "Two-Person Camping Tent",
        "outdoor",
        21900,
        (_axis("season", ("3-season", 0), ("4-season", 8000)), _axis("color", "green", "orange")),
    ),
    ProductTemplate(
        "Down Sleeping Bag",
        "outdoor",
        18900,
        (
            _axis("rating", ("30F", 0), ("15F", 4000)),
            _axis("length", ("regular", 0), ("long", 2000)),
        ),
    ),
    ProductTemplate(
        "Trekking Poles", "outdoor", 8900, (_axis("material", ("aluminum", 0), ("carbon", 5000)),)
    ),
    ProductTemplate(
        "Yoga Mat",
        "fitness",
        4900,
        (
            _axis("thickness", ("4mm", 0), ("6mm", 1000)),
            _axis("color", "plum", "ocean", "charcoal", "sage"),
        ),
    ),
    ProductTemplate(
        "Adjustable Dumbbell Pair",
        "fitness",
        29900,
        (_axis("max weight", ("25 lb", 0), ("50 lb", 15000)),),
    ),
    ProductTemplate(
        "Resistance Band Set", "fitness", 2900, (_axis("level", "light", "medium", "heavy"),)
    ),
    ProductTemplate(
        "Foam Roller",
        "fitness",
        3400,
        (_axis("length", ("18 inch", 0), ("36 inch", 1000)), _axis("firmness", "soft", "firm")),
    ),
    ProductTemplate(
        "LED Desk Lamp",
        "home",
        6900,
        (
            _axis("finish", "black", "white", "brass"),
            _axis("base", ("standard", 0), ("wireless charging", 2000)),
        ),
    ),
    ProductTemplate(
        "Linen Duvet Cover",
        "home",
        15900,
        (
            _axis("size", ("full/queen", 0), ("king", 3000)),
            _axis("color", "natural", "terracotta", "sage", "white"),
        ),
    ),
    ProductTemplate(
        "Memory Foam Pillow",
        "home",
        5900,
        (_axis("size", ("standard", 0), ("king", 1000)), _axis("firmness", "medium", "firm")),
    ),
    ProductTemplate(
        "Scented Soy Candle",
        "home",
        2800,
        (
            _axis("scent", "cedar", "fig", "sea salt", "lavender"),
            _axis("size", ("8 oz", 0), ("14 oz", 1200)),
        ),
    ),
    ProductTemplate(
        "Ceramic Planter",
        "home",
        3600,
        (
            _axis("diameter", ("6 inch", 0), ("10 inch", 1400)),
            _axis("color", "white", "terracotta", "black"),
        ),
    ),
)
