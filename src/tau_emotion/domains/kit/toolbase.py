"""The base of a domain's tool classes: the episode's tables, typed as the domain's model.

Every domain's tools read and write the state through one typed view of its database
(`State.view`), built once per tool set. `DatabaseTools[SomeDB]` builds it as ``self.db``:
the model is the class's own type argument, so a domain names it once, in its class line,
instead of writing the same constructor again.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar, cast, get_args, get_origin

from tau_emotion.domains.state import DomainDB, State
from tau_emotion.domains.tools import ToolSet

__all__ = ["DatabaseTools"]

D = TypeVar("D", bound=DomainDB)


class DatabaseTools(ToolSet, Generic[D]):
    """Tools over the database model `D`, reached as ``self.db``; subclass it as
    ``class ShopBase(DatabaseTools[ShopDB])`` and add the domain's helpers and tools."""

    model: ClassVar[type[DomainDB]]
    """`D` at run time, read from the subclass's class line."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is DatabaseTools:
                (model,) = get_args(base)
                if not (isinstance(model, type) and issubclass(model, DomainDB)):
                    raise TypeError(f"{cls.__name__}: DatabaseTools[...] wants a DomainDB model")
                cls.model = model
        if not hasattr(cls, "model"):
            raise TypeError(f"{cls.__name__} must subclass DatabaseTools[<its DomainDB>]")

    def __init__(self, state: State) -> None:
        super().__init__(state)
        # `model` is `D` itself (see __init_subclass__); a ClassVar cannot say so to mypy.
        self.db = cast(D, state.view(self.model))
