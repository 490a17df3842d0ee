"""JSON columns: JSONB on Postgres (indexable, queryable by analysts), JSON on SQLite.

`PydanticJSON(SomeModel)` stores a pydantic value and gives the same type back on load, so a
JSONB column has a schema in code even though the database does not enforce one.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import JSON
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

JSONVariant = JSON().with_variant(JSONB(), "postgresql")


class PydanticJSON(TypeDecorator[Any]):
    # none_as_null: Python None is SQL NULL (so "IS NULL" finds it), never the JSON value null.
    impl = JSON(none_as_null=True)
    cache_ok = True

    def __init__(self, pydantic_type: Any) -> None:
        super().__init__()
        self.pydantic_type = pydantic_type
        self._adapter: TypeAdapter[Any] = TypeAdapter(pydantic_type)

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(JSONB(none_as_null=True))
        return dialect.type_descriptor(JSON(none_as_null=True))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else self._adapter.dump_python(value, mode="json")

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else self._adapter.validate_python(value)
