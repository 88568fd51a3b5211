"""How records are shown to the agent: plain JSON-able dicts with money as '49.99'."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tau_emotion.domains.common import fmt
from tau_emotion.domains.retail.db import (
    Address,
    Customer,
    ExchangeRequest,
    Item,
    Option,
    Order,
    PaymentMethod,
    Product,
    ReturnRequest,
)

View = dict[str, Any]


def options(opts: tuple[Option, ...]) -> dict[str, str]:
    return {o.name: o.value for o in opts}


def address(a: Address) -> View:
    return a.model_dump()


def payment_method(m: PaymentMethod) -> View:
    view: View = {"payment_method_id": m.id, "type": m.kind, "label": m.label}
    if m.balance is not None:
        view["balance"] = fmt(m.balance)
    return view


def customer(c: Customer, orders: list[Order]) -> View:
    return {
        "customer_id": c.id,
        "name": f"{c.first_name} {c.last_name}",
        "email": c.email,
        "phone": c.phone,
        "date_of_birth": c.date_of_birth,
        "loyalty_tier": c.tier,
        "default_address": address(c.address),
        "payment_methods": [payment_method(m) for m in c.payment_methods],
        "orders": [
            {"order_number": o.id, "placed_on": o.placed_on, "status": o.status} for o in orders
        ],
    }


def return_request(r: ReturnRequest) -> View:
    return {
        "return_id": r.id,
        "item_ids": list(r.item_ids),
        "refund_amount": fmt(r.refund_amount),
        "refund_payment_method_id": r.refund_method_id,
        "requested_on": r.requested_on,
        "status": r.status,
    }


def exchange_request(e: ExchangeRequest) -> View:
    return {
        "exchange_id": e.id,
        "item_ids": list(e.item_ids),
        "new_item_ids": list(e.new_item_ids),
        "price_difference": fmt(e.price_difference),
        "payment_method_id": e.payment_method_id,
        "requested_on": e.requested_on,
        "status": e.status,
    }


def order(
    o: Order, ret: ReturnRequest | None = None, exchange: ExchangeRequest | None = None
) -> View:
    paid = sum((t.amount if t.kind == "charge" else -t.amount for t in o.transactions), Decimal(0))
    return {
        "order_number": o.id,
        "customer_id": o.customer_id,
        "placed_on": o.placed_on,
        "status": o.status,
        "items": [
            {
                "item_id": line.item_id,
                "product_id": line.product_id,
                "name": line.name,
                "options": options(line.options),
                "price": fmt(line.price),
            }
            for line in o.lines
        ],
        "item_subtotal": fmt(sum((line.price for line in o.lines), Decimal(0))),
        "shipping_address": address(o.shipping_address),
        "payments": [
            {
                "type": t.kind,
                "payment_method_id": t.method_id,
                "amount": fmt(t.amount),
                "note": t.note,
            }
            for t in o.transactions
        ],
        "net_amount_paid": fmt(paid),
        "promised_delivery_by": o.promised_by,
        "shipment": o.shipment.model_dump() if o.shipment else None,
        "delivered_on": o.delivered_on,
        "cancel_reason": o.cancel_reason,
        "late_delivery_credit": fmt(o.late_credit) if o.late_credit else None,
        "return": return_request(ret) if ret else None,
        "exchange": exchange_request(exchange) if exchange else None,
    }


def product(p: Product, items: list[Item]) -> View:
    return {
        "product_id": p.id,
        "name": p.name,
        "category": p.category,
        "variants": [
            {
                "item_id": i.id,
                "options": options(i.options),
                "price": fmt(i.price),
                "available": i.available,
            }
            for i in items
        ],
    }
