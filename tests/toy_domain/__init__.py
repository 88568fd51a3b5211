"""A tiny domain built in a temp folder, for engine tests that must not depend on a real domain.

It is also a whole domain for the Tracer: its declaration is `tracer_profile.TRACER`, and
`make_domain(root, seed_tasks=True)` adds the hand-written tasks the Tracer learns from.
"""

from __future__ import annotations

from pathlib import Path

from tau_emotion.data import Action, Intent, Split, Task
from tau_emotion.domains.base import Database, Domain, write_snapshot, write_tasks
from tau_emotion.domains.checks import authentication_before, confirmation_before_writes
from tau_emotion.domains.state import DomainDB, Record, State, Table
from tau_emotion.domains.tools import ToolSet, tool
from tau_emotion.errors import ToolError
from tau_emotion.tracer.build import run_build
from tau_emotion.tracer.config import BuildConfig

from toy_domain.tracer_profile import TRACER


class Customer(Record):
    name: str
    email: str
    credit: float = 0.0


class Transfer(Record):
    summary: str


class ToyDB(DomainDB):
    customers: dict[str, Customer]
    transfers: dict[str, Transfer]


_MORE = ("Cy Diaz", "Di Egan", "Ed Fox", "Flo Gray", "Gus Hale", "Hal Ito", "Ida Jones")


def generate(customers: int = 2) -> ToyDB:
    """Ana and Bo; a Tracer build asks for more customers (`customers`, at most 9)."""
    found = {
        "c1": Customer(name="Ana Lee", email="ana@example.com", credit=10.0),
        "c2": Customer(name="Bo Chen", email="bo@example.com"),
    }
    for n, name in enumerate(_MORE[: max(customers - 2, 0)], start=3):
        email = f"{name.split()[0].lower()}@example.com"
        found[f"c{n}"] = Customer(name=name, email=email, credit=float(n))
    return ToyDB(customers=found, transfers={})


class ToyTools(ToolSet):
    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.customers: Table[Customer] = state.table("customers")
        self.transfers: Table[Transfer] = state.table("transfers")

    @tool("read")
    def find_customer(self, email: str) -> dict[str, str]:
        """Find a customer id by email.

        Args:
            email: The customer's email address.
        """
        for key, c in self.customers.items():
            if c.email == email:
                return {"customer_id": key}
        raise ToolError(f"no customer with email {email}")

    @tool("read")
    def get_account(self, customer_id: str) -> dict[str, object]:
        """Get a customer's account: name, email and store credit.

        Args:
            customer_id: The customer id.
        """
        c = self.customers.get(customer_id)
        if c is None:
            raise ToolError(f"no customer {customer_id}")
        return {"customer_id": customer_id, "name": c.name, "email": c.email, "credit": c.credit}

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


def make_domain(root: Path, seed_tasks: bool = False) -> Domain:
    """The toy domain in `root`; with `seed_tasks`, nine customers and the hand-written
    tasks a Tracer build replays (tasks/dev.jsonl)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "policy.md").write_text(
        "# Toy policy\nAuthenticate by email. Confirm writes.\n"
        "Transfer to a human agent a customer who wants to close their account.\n"
    )
    customers = 9 if seed_tasks else 2
    write_snapshot(generate(customers), root / "db.json")
    if seed_tasks:
        write_tasks(root / "tasks" / "dev.jsonl", [seed_task("test"), seed_task("train")])
    return Domain(
        name="toy",
        description="A toy shop.",
        root=root,
        db_model=ToyDB,
        toolset=ToyTools,
        databases={"main": Database("db.json", lambda: generate(customers))},
        split_database={"train": "main", "test": "main"},
        checks=[
            confirmation_before_writes("toy.confirm"),
            authentication_before("toy.auth", ["find_customer"]),
        ],
        tracer_spec=TRACER,
    )


def seed_task(split: Split) -> Task:
    """A hand-written task as a domain ships them: look the customer up, read the account,
    add credit."""
    return Task(
        id=f"seed-{split}",
        domain="toy",
        split=split,
        user_id="c1",
        instruction="You are Ana Lee (ana@example.com). You want 5 dollars of store credit.",
        known_facts={"email": "ana@example.com"},
        intents=[
            Intent(
                request="Hi, I'd like 5 dollars of store credit, please.",
                actions=[
                    Action(name="find_customer", arguments={"email": "ana@example.com"}),
                    Action(name="get_account", arguments={"customer_id": "c1"}),
                    Action(name="add_credit", arguments={"customer_id": "c1", "amount": 5.0}),
                ],
                outputs=[],
            )
        ],
        provenance="seed",
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


SMALL_BUILD = BuildConfig(
    domains=["toy"], train_total=4, walk_samples=400, test_walks=30, workers=1
)
"""A Tracer build of the toy domain small enough for a test: seed 7, both splits."""


def small_build(root: Path) -> tuple[Path, Domain]:
    """The toy domain (with its seed tasks) in ``root/toy`` and `SMALL_BUILD` of it in
    ``root/build``: (the build folder, the domain)."""
    toy = make_domain(root / "toy", seed_tasks=True)
    run_build(SMALL_BUILD, root / "build", show=False, domains=[toy])
    return root / "build", toy
