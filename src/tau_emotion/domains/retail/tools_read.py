"""Read tools: identity lookups, account and order views, and the public catalogue."""

from __future__ import annotations

from tau_emotion.domains.kit.declare import ToolDocs
from tau_emotion.domains.kit.identity import Directory, Lookups, PhoneRule, last_ten, zip_code
from tau_emotion.domains.retail import views
from tau_emotion.domains.retail.db import Customer
from tau_emotion.domains.retail.tools_base import RetailAccess
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

DOCS = ToolDocs.beside(__file__)

CUSTOMERS: Lookups[RetailAccess, Customer] = Lookups(
    Directory(
        answer=lambda c: {"customer_id": c.id},
        missing="no customer account uses that {what}",
        phone=PhoneRule(last_ten, "a phone number needs ten digits, area code included"),
    ),
    people=lambda tools: tools.db.customers.values(),
)


def _lower(text: str) -> str:
    return text.strip().lower()


class RetailReads(RetailAccess):
    find_customer_by_email = CUSTOMERS.email(DOCS["find_customer_by_email"])
    find_customer_by_phone = CUSTOMERS.phone(DOCS["find_customer_by_phone"])
    find_customer_by_name_zip = CUSTOMERS.first_last_and(
        DOCS["find_customer_by_name_zip"],
        zip_code(lambda c: c.address.zip_code),
        fold=_lower,
        refusal="no customer account matches that name and zip code",
    )

    @tool("read")
    def get_customer(self, customer_id: str) -> views.View:
        """Show an authenticated customer's profile: contact details, loyalty tier, default
        address, payment methods (with gift card and store credit balances) and their orders.

        Args:
            customer_id: The id returned by a find_customer_* lookup, e.g. 'CU-10042'.
        """
        c = self.customer(customer_id)
        return views.customer(c, [self.db.orders[n] for n in c.order_numbers])

    @tool("read")
    def get_order(self, order_number: str) -> views.View:
        """Show one order: status, items with their item ids and prices, shipping address,
        payments and refunds, delivery dates, tracking, and any return or exchange request.

        Args:
            order_number: The order number from the receipt, e.g. 'ORD-482913'.
        """
        o = self.order(order_number)
        ret = self.db.returns.get(o.return_id) if o.return_id else None
        exchange = self.db.exchanges.get(o.exchange_id) if o.exchange_id else None
        return views.order(o, ret, exchange)

    @tool("read")
    def search_products(self, keyword: str = "") -> list[views.View]:
        """Search the catalogue by words in a product's name or category; an empty keyword
        lists every product. Returns product ids, names and categories.

        Args:
            keyword: A word such as 'jacket', 'kitchen' or 'headphones'.
        """
        wanted = keyword.strip().lower()
        found = [
            {"product_id": p.id, "name": p.name, "category": p.category}
            for p in self.db.products.values()
            if wanted in p.name.lower() or wanted in p.category.lower()
        ]
        if not found:
            raise ToolError(f"no product matches {keyword!r}; try a shorter keyword")
        return found

    @tool("read")
    def get_product(self, product_id: str) -> views.View:
        """Show a product and all its variants: item id, options, price and availability.

        Args:
            product_id: The product id, e.g. 'P-1007' (from an order or from search_products).
        """
        p = self.db.products.get(product_id.strip().upper())
        if p is None:
            raise ToolError(f"no product with id {product_id!r}")
        return views.product(p, [self.db.items[i] for i in p.item_ids])
