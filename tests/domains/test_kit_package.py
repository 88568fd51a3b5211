"""`kit.package.domain_package`: a domain package's `Domain` from its folder and its parts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_emotion.domains import domain_names, load_domain
from tau_emotion.domains.kit.package import SHARED_DATABASE, domain_package
from tau_emotion.domains.kit.split import SPLIT_DATABASE, SplitGenerator
from tau_emotion.errors import DomainError

from toy_domain import ToyDB, ToyTools, generate


def test_one_generator_function_is_one_database_for_both_splits(tmp_path: Path) -> None:
    init = tmp_path / "shop" / "__init__.py"
    domain = domain_package(
        str(init), "A shop.", db=ToyDB, tools=ToyTools, checks=[], generate=generate
    )
    assert (domain.name, domain.root, domain.description) == ("shop", init.parent, "A shop.")
    assert (domain.db_model, domain.toolset, list(domain.checks)) == (ToyDB, ToyTools, [])
    assert {name: db.file for name, db in domain.databases.items()} == {"main": "db.json"}
    assert domain.databases["main"].generate is generate
    assert dict(domain.split_database) == dict(SHARED_DATABASE) == {"train": "main", "test": "main"}


def test_a_split_generator_is_a_train_and_an_eval_database(tmp_path: Path) -> None:
    made: list[int] = []

    def run(customers: int) -> ToyDB:
        made.append(customers)
        return generate(customers)

    split = SplitGenerator(run, 2, 3)
    init = tmp_path / "club" / "__init__.py"
    domain = domain_package(
        str(init), "A club.", db=ToyDB, tools=ToyTools, checks=[], generate=split
    )
    assert {name: db.file for name, db in domain.databases.items()} == {
        "train": "db_train.json",
        "eval": "db_eval.json",
    }
    assert len(domain.databases["eval"].generate().customers) == 3
    assert made == [3]
    assert domain.split_database == SPLIT_DATABASE


def test_only_a_package_file_names_a_domain(tmp_path: Path) -> None:
    with pytest.raises(DomainError, match="__file__ of a package"):
        domain_package(
            str(tmp_path / "shop" / "db.py"),
            "A shop.",
            db=ToyDB,
            tools=ToyTools,
            checks=[],
            generate=generate,
        )


@pytest.mark.parametrize("name", domain_names())
def test_every_shipped_domain_is_its_folder(name: str) -> None:
    """Discovery is by folder name; the declared name and root must be that folder's."""
    domain = load_domain(name)
    assert domain.name == domain.root.name == name
    assert (domain.root / "__init__.py").exists()
    assert domain.description.strip() and domain.description == " ".join(domain.description.split())
