"""A tiny domain built in a temp folder, for engine tests that must not depend on a real domain."""

from __future__ import annotations

from pathlib import Path

from tau_emotion.data import Action, Intent, Task
from tau_emotion.domains.base import Database, Domain, write_snapshot
from tau_emotion.domains.checks import authentication_before, confirmation_before_writes
from tau_emotion.domains.state import DomainDB, Record, State, Table
from tau_emotion.domains.tools import ToolSet, tool
from tau_emotion.errors import ToolError


class Customer(Record):
    name: str
    email: str
    credit: float = 0.0


class Transfer(Record):
    summary: str


class ToyDB(DomainDB):
    customers: dict[str, Customer]
    transfers: dict[str, Transfer]


def generate() -> ToyDB:
    return ToyDB(
        customers={
            "c1": Customer(name="Ana Lee", email="ana@example.com", credit=10.0),
            "c2": Customer(name="Bo Chen", email="bo@example.com"),
        },
        transfers={},
    )


class ToyTools(ToolSet):
    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.customers: Table[Customer] = state.table("customers")
        self.transfers: Table[Transfer] = state.table("transfers")

    @tool("read")
    def find_customer(self, email: str) -> str:
        """Find a customer id by email.

        Args:
            email: The customer's email address.
        """
        for key, c in self.customers.items():
            if c.email == email:
                return key
        raise ToolError(f"no customer with email {email}")

    @tool("read")
    def get_credit(self, customer_id: str) -> float:
        """Get a customer's store credit.

        Args:
            customer_id: The customer id.
        """
        c = self.customers.get(customer_id)
        if c is None:
            raise ToolError(f"no customer {customer_id}")
        return c.credit

    @tool("write")
    def add_credit(self, customer_id: str, amount: float) -> float:
        """Add store credit to a customer.

        Args:
            customer_id: The customer id.
            amount: Amount in dollars, positive, at most 50.
        """
        c = self.customers.get(customer_id)
        if c is None:
            raise ToolError(f"no customer {customer_id}")
        if not 0 < amount <= 50:
            raise ToolError("amount must be between 0 and 50")
        self.customers.put(customer_id, c.model_copy(update={"credit": c.credit + amount}))
        return c.credit + amount

    @tool("terminal")
    def transfer_to_human_agents(self, summary: str) -> str:
        """Hand the conversation to a human agent.

        Args:
            summary: What the customer needs.
        """
        self.transfers.put(f"T{len(self.transfers) + 1}", Transfer(summary=summary))
        return "Transferred."


def make_domain(root: Path) -> Domain:
    root.mkdir(parents=True, exist_ok=True)
    (root / "policy.md").write_text("# Toy policy\nAuthenticate by email. Confirm writes.\n")
    write_snapshot(generate(), root / "db.json")
    return Domain(
        name="toy",
        description="A toy shop.",
        root=root,
        db_model=ToyDB,
        toolset=ToyTools,
        databases={"main": Database("db.json", generate)},
        split_database={"train": "main", "test": "main"},
        checks=[
            confirmation_before_writes("toy.confirm"),
            authentication_before("toy.auth", ["find_customer"]),
        ],
    )


def credit_task(outputs: list[str] | None = None, amount: float = 5.0) -> Task:
    return Task(
        id="t1",
        domain="toy",
        split="test",
        user_id="c1",
        instruction="You are Ana Lee (ana@example.com). Ask for 5 dollars of store credit.",
        known_facts={"email": "ana@example.com"},
        intents=[
            Intent(
                request="Hi, I'd like some store credit added, please.",
                actions=[
                    Action(name="find_customer", arguments={"email": "ana@example.com"}),
                    Action(name="add_credit", arguments={"customer_id": "c1", "amount": amount}),
                ],
                outputs=outputs if outputs is not None else ["15.0"],
            ),
            Intent(
                request="And what is my balance now?",
                actions=[Action(name="get_credit", arguments={"customer_id": "c1"})],
                outputs=[],
            ),
        ],
    )
