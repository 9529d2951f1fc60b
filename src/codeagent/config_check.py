"""The settings' rules as a pydantic model, built from :data:`codeagent.config.FIELDS`:
it decides (and words the errors of) every value :class:`codeagent.config.Settings` does not
take as plainly valid. Imported only then, so a run with plain settings never loads pydantic."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from codeagent.config_fields import FIELDS, Setting


def _field(spec: Setting) -> tuple[Any, Any]:
    bounds: dict[str, Any] = {
        k: v for k, v in (("gt", spec.gt), ("ge", spec.ge), ("le", spec.le)) if v is not None
    }
    made = {"default_factory": spec.factory} if spec.factory else {"default": spec.default}
    field = Field(description=spec.description, **made, **bounds)
    return (spec.kind | None if spec.optional else spec.kind, field)


class _Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator(*(n for n, s in FIELDS.items() if s.before), mode="before", check_fields=False)
    @classmethod
    def _before(cls, value: Any, info: Any) -> Any:
        before = FIELDS[info.field_name].before
        return before(value) if before is not None else value


@cache
def model() -> type[BaseModel]:
    """The pydantic model of the settings (named ``Settings``, as its errors say)."""
    fields: dict[str, Any] = {name: _field(spec) for name, spec in FIELDS.items()}
    return create_model("Settings", __base__=_Rules, **fields)


def validated(values: dict[str, Any]) -> dict[str, Any]:
    """Every setting's value from ``values`` as pydantic takes them; raises its
    ``ValidationError`` for an invalid one."""
    checked = model()(**values)
    return {name: getattr(checked, name) for name in FIELDS}
