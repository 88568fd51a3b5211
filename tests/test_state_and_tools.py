from __future__ import annotations

from collections.abc import MutableMapping

import pytest
from pydantic import BaseModel

from tau_emotion.data import ToolCall
from tau_emotion.domains import Domain
from tau_emotion.domains.state import DomainDB, Record, State, Table, db_digest
from tau_emotion.environment import Environment
from tau_emotion.errors import ToolError

from toy_domain import ToyDB, ToyTools


def test_schema_comes_from_signature_and_docstring() -> None:
    schema = ToyTools.specs["add_credit"].schema
    assert schema["name"] == "add_credit"
    assert schema["description"] == "Add store credit to a customer."
    props = schema["parameters"]["properties"]
    assert props["amount"] == {
        "type": "number",
        "description": "Amount in dollars, positive, at most 50.",
    }
    assert schema["parameters"]["required"] == ["customer_id", "amount"]
    assert schema["parameters"]["additionalProperties"] is False
    assert {s.kind for s in ToyTools.specs.values()} == {"read", "write", "terminal"}


def test_tool_without_docstring_is_rejected() -> None:
    from tau_emotion.domains.tools import ToolSet, tool

    with pytest.raises(TypeError, match="docstring"):

        class Bad(ToolSet):
            @tool("read")
            def nothing(self, x: int) -> int:
                return x


def test_bad_arguments_unknown_tools_and_refusals_become_tool_errors(toy_env: Environment) -> None:
    with pytest.raises(ToolError, match="unknown tool 'nope'"):
        toy_env.call("nope", {})
    with pytest.raises(ToolError, match="amount: Input should be a valid number"):
        toy_env.call("add_credit", {"customer_id": "c1", "amount": "lots"})
    with pytest.raises(ToolError, match="customer_id: Field required"):
        toy_env.call("add_credit", {"amount": 3})
    with pytest.raises(ToolError, match="Extra inputs are not permitted"):
        toy_env.call("get_credit", {"customer_id": "c1", "extra": 1})
    msg = toy_env.execute(
        ToolCall(id="x", name="add_credit", arguments={"customer_id": "c1", "amount": 99})
    )
    assert msg.error and msg.content == "Error: amount must be between 0 and 50"
    bad = ToolCall(id="y", name="get_credit", parse_error="invalid JSON", raw_arguments="{oops")
    msg = toy_env.execute(bad)
    assert msg.error and "could not parse the arguments of get_credit" in (msg.content or "")


def test_copy_on_write_state_and_order_independent_hash(toy: Domain) -> None:
    env = Environment(toy, "main")
    pristine_db, digest = toy.load_db("main")
    h0 = env.hash()
    env.call("add_credit", {"customer_id": "c1", "amount": 5})
    env.call("add_credit", {"customer_id": "c2", "amount": 1})
    h1 = env.hash()
    assert h1 != h0
    assert pristine_db.customers["c1"].credit == 10.0  # shared DB untouched
    assert db_digest(pristine_db) == digest
    env.reset()
    assert env.hash() == h0
    env.call("add_credit", {"customer_id": "c2", "amount": 1})
    env.call("add_credit", {"customer_id": "c1", "amount": 5})
    assert env.hash() == h1
    # writing a record back to its pristine value drops it from the overlay
    env.reset()
    c1 = env.state.table("customers")["c1"]
    env.state.table("customers").put("c1", c1.model_copy(update={"credit": 11.0}))
    env.state.table("customers").put("c1", c1)
    assert env.hash() == h0 and env.state.changes() == {}


def test_table_views_merge_inserts_and_deletes(toy_env: Environment) -> None:
    table = toy_env.state.table("customers")
    c1 = table["c1"]
    table.put("c3", c1.model_copy(update={"name": "New"}))
    table.delete("c2")
    assert sorted(table.keys()) == ["c1", "c3"]
    assert len(table) == 2 and "c2" not in table and "c3" in table
    with pytest.raises(KeyError):
        _ = table["c2"]
    toy_env.reset()
    assert sorted(table.keys()) == ["c1", "c2"]


def test_records_are_frozen(toy_env: Environment) -> None:
    c1 = toy_env.state.table("customers")["c1"]
    with pytest.raises(Exception, match="frozen"):
        c1.credit = 1.0  # type: ignore[misc]


class Seat(BaseModel):
    row: int
    letter: str


def test_nested_models_are_inlined_and_an_argument_called_title_survives() -> None:
    from tau_emotion.domains.tools import ToolSet, tool

    class Cinema(ToolSet):
        @tool("write")
        def book(self, title: str, seats: list[Seat]) -> str:
            """Book seats for a film.

            Args:
                title: The film's title.
                seats: The seats.
            """
            return title

    params = Cinema.specs["book"].schema["parameters"]
    assert "$defs" not in params and "title" in params["properties"]
    assert params["properties"]["title"] == {"description": "The film's title.", "type": "string"}
    assert params["properties"]["seats"]["items"]["properties"]["row"] == {"type": "integer"}


class Row(Record):
    n: int


class TwoTables(DomainDB):
    rows: MutableMapping[str, Row]
    spares: MutableMapping[str, Row]


def _two_tables() -> State:
    db = TwoTables.model_validate({"rows": {"a": {"n": 1}, "b": {"n": 2}}, "spares": {}})
    return State(db, "digest")


def test_a_model_with_mapping_fields_parses_to_dicts_and_dumps_as_before() -> None:
    db = _two_tables().db
    assert type(db.tables()["rows"]) is dict
    assert db.model_dump_json() == '{"rows":{"a":{"n":1},"b":{"n":2}},"spares":{}}'


def test_a_table_is_a_mutable_mapping_whose_writes_stay_in_the_overlay() -> None:
    state = _two_tables()
    rows: Table[Row] = state.table("rows")
    assert isinstance(rows, MutableMapping)
    rows["c"] = Row(n=3)
    del rows["a"]
    with pytest.raises(KeyError):
        del rows["a"]  # `del` of a missing row is an error, as for a dict ...
    rows.delete("a")  # ... `delete` stays forgiving
    assert list(rows.items()) == [("b", Row(n=2)), ("c", Row(n=3))]
    assert list(rows.values()) == [Row(n=2), Row(n=3)] and list(rows) == ["b", "c"]
    assert ("c", Row(n=3)) in rows.items() and Row(n=2) in rows.values()
    assert rows.get("a") is None and rows.get("a", Row(n=0)) == Row(n=0)
    assert rows.pop("c") == Row(n=3) and len(rows) == 1
    assert state.changes() == {"rows": {"a": None}}
    assert state.db.tables()["rows"] == {"a": Row(n=1), "b": Row(n=2)}  # pristine untouched
    rows["a"] = Row(n=1)  # writing the pristine value back undoes the change
    assert state.changes() == {}
    assert rows != state.table("rows") and len({rows, state.table("rows")}) == 2  # by identity


def test_the_view_is_the_domain_model_with_live_tables() -> None:
    state = _two_tables()
    view = state.view(TwoTables)
    assert isinstance(view, TwoTables) and isinstance(view.rows, Table)
    view.spares["x"] = view.rows["a"].model_copy(update={"n": 9})
    assert state.table("spares")["x"] == Row(n=9)
    assert state.changes() == {"spares": {"x": Row(n=9)}}
    state.reset()
    assert "x" not in view.spares and len(view.spares) == 0  # the view follows the state
    with pytest.raises(TypeError, match="holds a TwoTables, not a ToyDB"):
        state.view(ToyDB)


def test_applied_is_a_new_database_with_the_writes_in_it() -> None:
    state = _two_tables()
    rows = state.table("rows")
    rows["a"] = Row(n=5)
    rows["c"] = Row(n=3)
    del rows["b"]
    applied = state.applied(TwoTables)
    assert isinstance(applied, TwoTables)
    assert dict(applied.rows) == {"a": Row(n=5), "c": Row(n=3)}  # deleted rows left out
    assert applied.spares is state.db.tables()["spares"]  # an untouched table is shared
    assert state.db.tables()["rows"] == {"a": Row(n=1), "b": Row(n=2)}  # pristine untouched
    with pytest.raises(TypeError, match="holds a TwoTables, not a ToyDB"):
        state.applied(ToyDB)
