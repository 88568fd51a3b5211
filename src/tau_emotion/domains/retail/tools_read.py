"""Read tools: identity lookups, account and order views, and the public catalogue."""

from __future__ import annotations

from tau_emotion.domains.kit.identity import Directory, PhoneRule, last_ten
from tau_emotion.domains.retail import views
from tau_emotion.domains.retail.db import Customer
from tau_emotion.domains.retail.tools_base import RetailAccess
from tau_emotion.domains.tools import tool
from tau_emotion.errors import ToolError

CUSTOMERS: Directory[Customer] = Directory(
    answer=lambda c: {"customer_id": c.id},
    missing="no customer account uses that {what}",
    phone=PhoneRule(last_ten, "a phone number needs ten digits, area code included"),
)


class RetailReads(RetailAccess):
    @tool("read")
    def find_customer_by_email(self, email: str) -> views.View:
        """Authenticate a customer by the email address on their account; returns their customer id.

        Args:
            email: The email address the customer gives, e.g. 'maya.patel12@example.com'.
        """
        return CUSTOMERS.by_email(self.customers.values(), email)

    @tool("read")
    def find_customer_by_phone(self, phone: str) -> views.View:
        """Authenticate a customer by the phone number on their account; returns their customer id.

        Args:
            phone: The phone number the customer gives, in any format, e.g. '503-555-0142'.
        """
        return CUSTOMERS.by_phone(self.customers.values(), phone)

    @tool("read")
    def find_customer_by_name_zip(
        self, first_name: str, last_name: str, zip_code: str
    ) -> views.View:
        """Authenticate a customer by full name and the zip code of their default address.

        Args:
            first_name: The customer's first name, e.g. 'Maya'.
            last_name: The customer's last name, e.g. 'Patel'.
            zip_code: The five-digit zip code of the customer's default address, e.g. '97214'.
        """
        first, last, zip5 = first_name.strip().lower(), last_name.strip().lower(), zip_code.strip()
        return CUSTOMERS.by(
            self.customers.values(),
            lambda c: (
                (c.first_name.lower(), c.last_name.lower(), c.address.zip_code)
                == (first, last, zip5)
            ),
            "name and zip code",
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
        return views.customer(c, [self.orders[n] for n in c.order_numbers])

    @tool("read")
    def get_order(self, order_number: str) -> views.View:
        """Show one order: status, items with their item ids and prices, shipping address,
        payments and refunds, delivery dates, tracking, and any return or exchange request.

        Args:
            order_number: The order number from the receipt, e.g. 'ORD-482913'.
        """
        o = self.order(order_number)
        ret = self.returns.get(o.return_id) if o.return_id else None
        exchange = self.exchanges.get(o.exchange_id) if o.exchange_id else None
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
            for p in self.products.values()
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
        p = self.products.get(product_id.strip().upper())
        if p is None:
            raise ToolError(f"no product with id {product_id!r}")
        return views.product(p, [self.items[i] for i in p.item_ids])
