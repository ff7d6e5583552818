"""Engine values to plain TOML-able data and back, checking every value on the way in.

Serialization lives here, outside the engine's classes (STYLE.md), and is generic
over their attrs fields: a field added to the model is saved and loaded with no
change here.  TOML has no null, so a field whose value is None is left out, and so
is a field at its default (a save shows what matters); a missing field takes the
class default, and a field without one must be present.

Loading never trusts the file: every value is checked against the field's type and
against bounds that rule out absurd numbers, and the first problem is raised as a
`DecodeError` saying where and what, in Spanish.
"""

from __future__ import annotations

import enum
import types
import typing
from functools import cache
from typing import Any

import attrs

from .engine.limits import BOUNDS, DEFAULT_BOUNDS
from .engine.model import Stop

#: Small classes written as an array of their fields, in order: `[moment, ac, begin]`.
AS_ARRAY = frozenset({Stop})

#: Fields always written, even at their default, so that a save reads well by hand.
ALWAYS = frozenset({"name", "rules", "turn", "ac_per_turn", "side", "status", "system"})

#: Bounds on numbers are the engine's own (`engine/limits.py`): one set of limits
#: for what a command may make and what a file may hold.


class DecodeError(Exception):
    """A value in a save that is not what the model expects; `str()` is Spanish."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


@cache
def _fields(cls: type) -> tuple[tuple[attrs.Attribute, Any], ...]:
    """The attrs fields of `cls` with their resolved types and defaults."""
    attrs.resolve_types(cls)
    result = []
    for f in attrs.fields(cls):
        default = f.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        result.append((f, default))
    return tuple(result)


# ---------------------------------------------------------------- out


def to_data(obj: Any, *, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """An attrs instance as a dict of TOML values (None and defaults left out)."""
    table: dict[str, Any] = {}
    for f, default in _fields(type(obj)):
        if f.name in skip:
            continue
        value = getattr(obj, f.name)
        if value is None or (value == default and f.name not in ALWAYS):
            continue
        table[f.name] = _encode(value)
    return table


def _encode(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    kind = type(value)
    if kind in AS_ARRAY:
        return [_encode(getattr(value, f.name)) for f, _ in _fields(kind)]
    if attrs.has(kind):
        return to_data(value)
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


# ---------------------------------------------------------------- in


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def from_data(cls: type, data: Any, where: str = "") -> Any:
    """An instance of attrs class `cls` from a dict read from TOML, every value checked."""
    if not isinstance(data, dict):
        raise DecodeError(where, f"se esperaba una tabla, no {_describe(data)}")
    known = {f.name for f, _ in _fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise DecodeError(where, f"campo desconocido «{unknown[0]}»")
    values = {}
    for f, _ in _fields(cls):
        here = f"{where} › {f.name}" if where else f.name
        if f.name in data:
            values[f.name] = from_toml_value(f.type, data[f.name], here, f.name)
        elif f.default is attrs.NOTHING:
            if type(None) in typing.get_args(f.type):  # None is written as no key
                values[f.name] = None
            else:
                raise DecodeError(where, f"falta el campo «{f.name}»")
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:
        raise DecodeError(where, f"valores incoherentes ({error})") from None


def _tagged(options: list[type], value: Any, where: str) -> Any:
    """A value of one of several attrs classes, told apart by their `system` field
    (each class's default, always written: a ruleset's sheet)."""
    if not all(isinstance(option, type) and attrs.has(option) for option in options):
        raise TypeError(f"unsupported union {options!r}")
    by_tag = {}
    for option in options:
        field = attrs.fields_dict(option).get("system")
        if field is None:
            raise TypeError(f"{option.__name__} has no `system` field to tell it apart")
        by_tag[field.default] = option
    if not isinstance(value, dict):
        raise DecodeError(where, f"se esperaba una tabla, no {_describe(value)}")
    tag = value.get("system")
    if tag not in by_tag:
        raise DecodeError(where, f"system: se esperaba {' o '.join(map(repr, by_tag))}, no {_describe(tag)}")
    return from_data(by_tag[tag], value, where)


def from_toml_value(kind: Any, value: Any, where: str, name: str = "") -> Any:
    """`value` read from TOML as an instance of the (resolved) type `kind`."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        if len(options) > 1:
            return _tagged(options, value, where)
        return from_toml_value(options[0], value, where, name)
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(value, list):
            raise DecodeError(where, f"se esperaba una lista, no {_describe(value)}")
        if len(args) != 2 or args[1] is not Ellipsis:
            raise TypeError(f"unsupported tuple type {kind!r} (only tuple[X, ...])")
        return tuple(
            from_toml_value(args[0], item, f"{where} nº {index}", name)
            for index, item in enumerate(value, 1)
        )
    if kind is bool:
        if not isinstance(value, bool):
            raise DecodeError(where, f"se esperaba true o false, no {_describe(value)}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DecodeError(where, f"se esperaba un número entero, no {_describe(value)}")
        low, high = BOUNDS.get(name, DEFAULT_BOUNDS)
        if not low <= value <= high:
            raise DecodeError(where, f"valor absurdo {value} (debe estar entre {low} y {high})")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise DecodeError(where, f"se esperaba un texto, no {_describe(value)}")
        return value
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(str(member.value) for member in kind)
            raise DecodeError(
                where, f"valor desconocido {_describe(value)} (se admite: {allowed})"
            ) from None
    if isinstance(kind, type) and attrs.has(kind):
        if kind in AS_ARRAY:
            fields = _fields(kind)
            if not isinstance(value, list) or len(value) != len(fields):
                raise DecodeError(
                    where, f"se esperaba una lista de {len(fields)} números, no {_describe(value)}"
                )
            return kind(*(
                from_toml_value(f.type, item, where, f.name) for (f, _), item in zip(fields, value)
            ))
        return from_data(kind, value, where)
    raise TypeError(f"unsupported field type {kind!r}")
