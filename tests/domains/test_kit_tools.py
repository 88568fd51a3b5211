"""The kit's declared tools: a schema exactly like a hand-written method's, the identity-lookup
family and the hand-off tool from data, and every domain's `tool_docs.json` in use."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.common import Transfer
from tau_emotion.domains.kit.declare import DOCS_FILE, ToolDoc, ToolDocs, declare
from tau_emotion.domains.kit.handoff import HandOffDesk, summary_transfer
from tau_emotion.domains.kit.identity import (
    Directory,
    Lookups,
    PhoneRule,
    date_of_birth,
    last_ten,
    written_date,
    zip_code,
)
from tau_emotion.domains.kit.toolbase import DatabaseTools
from tau_emotion.domains.state import DomainDB, State, Table
from tau_emotion.domains.tools import ToolSet, tool
from tau_emotion.errors import ToolError


@dataclass(frozen=True)
class Caller:
    key: str
    first_name: str
    last_name: str
    email: str
    phone: str
    zip_code: str
    date_of_birth: str


CALLERS = (
    Caller("A", "Dana", "Ruiz", "dana@example.com", "503-555-0147", "97214", "1984-03-09"),
    Caller("B", "Lee", "Kim", "lee@example.com", "503-555-0199", "97215", "1990-11-30"),
)


class _Desk(DomainDB):
    transfers: dict[str, Transfer]


class Base(ToolSet):
    callers = CALLERS

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.transfers: Table[Transfer] = state.table("transfers")


def doc(name: str, **args: str) -> ToolDoc:
    return ToolDoc(name=name, description=f"Describe {name}, over two lines.", args=args)


PEOPLE: Lookups[Base, Caller] = Lookups(
    Directory(
        answer=lambda c: {"caller_id": c.key},
        missing="nobody with that {what}",
        phone=PhoneRule(last_ten, "ten digits, please"),
    ),
    people=lambda tools: tools.callers,
)
DESK = HandOffDesk(prefix="TR", record=summary_transfer, reply="{id} for {summary}")


class Tools(Base):
    by_email = PEOPLE.email(doc("by_email", email="The email."))
    by_phone = PEOPLE.phone(doc("by_phone", phone_number="The phone."), param="phone_number")
    by_zip = PEOPLE.full_name_and(
        doc("by_zip", full_name="Name.", zip_code="Zip."),
        zip_code(lambda c: c.zip_code),
        refusal="no caller matches that name and zip code",
    )
    by_birth = PEOPLE.first_last_and(
        doc("by_birth", first_name="First.", last_name="Last.", date_of_birth="Born."),
        date_of_birth(lambda c: c.date_of_birth, written_date),
        fold=lambda text: text.strip().casefold(),
    )
    transfer_to_human_agents = DESK.tool(
        doc("transfer_to_human_agents", summary="What they need."),
        Base,
        lambda tools: tools.transfers,
        lead=lambda tools: "7",
    )


class HandWritten(ToolSet):
    @tool("read")
    def by_zip(self, full_name: str, zip_code: str) -> dict[str, str]:
        """Describe by_zip,
        over two lines.

        Args:
            full_name: Name.
            zip_code: Zip.
        """
        raise AssertionError("never called")


@pytest.fixture
def tools() -> Tools:
    return Tools(State(_Desk(transfers={}), "digest"))


def test_a_declared_tool_has_the_schema_of_the_method_written_out() -> None:
    assert Tools.specs["by_zip"].schema == HandWritten.specs["by_zip"].schema
    assert Tools.specs["by_zip"].kind == "read"
    assert Tools.specs["transfer_to_human_agents"].kind == "terminal"
    assert Tools.by_zip.__name__ == "by_zip"
    required = Tools.specs["by_birth"].schema["parameters"]["required"]
    assert required == ["first_name", "last_name", "date_of_birth"]


def test_docs_must_describe_exactly_the_parameters_the_tool_takes() -> None:
    with pytest.raises(ValueError, match="the docs describe"):
        declare("read", doc("x", email="The email."), ["email", "phone"], lambda t, e, p: e)


def test_lookups_match_what_a_caller_says(tools: Tools) -> None:
    assert tools.invoke("by_email", {"email": " DANA@example.com"}) == {"caller_id": "A"}
    assert tools.invoke("by_phone", {"phone_number": "+1 (503) 555-0199"}) == {"caller_id": "B"}
    assert tools.by_zip("  dana   RUIZ ", "97214 ") == {"caller_id": "A"}
    found = tools.invoke(
        "by_birth", {"first_name": "LEE ", "last_name": "kim", "date_of_birth": "1990-11-30"}
    )
    assert found == {"caller_id": "B"}


def test_lookups_refuse_with_the_domains_words(tools: Tools) -> None:
    with pytest.raises(ToolError, match=r"^ten digits, please$"):
        tools.invoke("by_phone", {"phone_number": "555-0199"})
    with pytest.raises(ToolError, match=r"^nobody with that phone number$"):
        tools.invoke("by_phone", {"phone_number": "503-555-0000"})
    with pytest.raises(ToolError, match=r"^no caller matches that name and zip code$"):
        tools.by_zip("Dana Ruiz", "97215")
    with pytest.raises(ToolError, match=r"^date_of_birth must be written YYYY-MM-DD$"):
        tools.by_birth("Lee", "Kim", "30/11/1990")
    with pytest.raises(ToolError, match=r"^nobody with that name and date of birth$"):
        tools.by_birth("Lee", "Kim", "1990-11-29")


def test_the_declared_hand_off_numbers_with_the_lead_and_keeps_the_summary(tools: Tools) -> None:
    assert tools.invoke("transfer_to_human_agents", {"summary": "a refund"}) == (
        "TR70001 for a refund"
    )
    assert tools.transfers["TR70001"].summary == "a refund"


def test_tool_docs_load_from_beside_a_module_and_name_each_tool_once(tmp_path: Path) -> None:
    entry = {"name": "find_x", "description": "Find x.", "args": {"email": "The email."}}
    (tmp_path / DOCS_FILE).write_text(json.dumps([entry]))
    docs = ToolDocs.beside(str(tmp_path / "tools.py"))
    assert docs["find_x"].docstring() == "Find x.\n\nArgs:\n    email: The email."
    with pytest.raises(KeyError, match="has no tool 'find_y'"):
        docs["find_y"]
    (tmp_path / DOCS_FILE).write_text(json.dumps([entry, entry]))
    with pytest.raises(ValueError, match="describes a tool twice"):
        ToolDocs.beside(str(tmp_path / "tools.py"))


@pytest.mark.parametrize("name", domain_names())
def test_every_domain_declares_each_documented_kit_tool_under_its_name(name: str) -> None:
    """A `tool_docs.json` entry is the schema of the tool of that name, and no entry is left
    unused (a tool assigned under another name than its docs would show here)."""
    domain = load_domain(name)
    path = domain.root / DOCS_FILE
    if not path.exists():
        pytest.skip(f"{name} declares no kit tools")
    docs = ToolDocs.model_validate_json(path.read_bytes())
    specs = domain.toolset.specs
    for entry in docs.root:
        assert entry.name in specs, f"{name}: {entry.name} is documented but not a tool"
        assert getattr(domain.toolset, entry.name).__name__ == entry.name
        schema = specs[entry.name].schema
        assert schema["description"] == entry.description
        properties = schema["parameters"]["properties"]
        assert {p: properties[p]["description"] for p in properties} == entry.args


class DeskTools(DatabaseTools[_Desk]):
    """A tool base whose model is its class line's type argument."""


class DeskReads(DeskTools):
    """A mixin over it inherits the model."""


def test_database_tools_view_the_model_of_their_class_line() -> None:
    reads = DeskReads(State(_Desk(transfers={}), "digest"))
    assert DeskReads.model is _Desk
    assert isinstance(reads.db, _Desk)
    assert isinstance(reads.db.transfers, Table)


def test_database_tools_want_a_database_model() -> None:
    with pytest.raises(TypeError, match="must subclass DatabaseTools"):

        class Untyped(DatabaseTools):  # type: ignore[type-arg]
            pass

    with pytest.raises(TypeError, match="wants a DomainDB model"):

        class NotADatabase(DatabaseTools[Caller]):  # type: ignore[type-var]
            pass
