"""tomllib's syntax errors in Spanish, for the saves and the house-rule files alike."""

from __future__ import annotations

import re
import tomllib

_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
#: Where tomllib says an error is when the text ends first.
_AT_END = "(at end of document)"


#: tomllib's messages (English) in Spanish, by their beginning; others are kept as they are.
_TOML_ES = (
    ("Unterminated string", "texto sin cerrar (falta la comilla final)"),
    ("Expected '=' after a key", "falta «=» después de una clave"),
    ("Expected ']' at the end of a table", "falta «]» al final del nombre de una tabla"),
    ("Expected ']]' at the end of an array", "falta «]]» al final del nombre de una tabla"),
    ("Unclosed array", "lista sin cerrar (falta «]»)"),
    ("Unclosed inline table", "tabla en línea sin cerrar (falta «}»)"),
    ("Invalid value", "valor no válido"),
    ("Invalid statement", "línea no válida"),
    ("Cannot declare", "una tabla o clave aparece dos veces"),
    ("Cannot overwrite a value", "una clave aparece dos veces"),
    ("Expected newline or end of document", "sobra algo al final de la línea"),
    ("Illegal character", "carácter no permitido"),
    ("Invalid initial character for a key", "clave no válida"),
)


def toml_error(error: tomllib.TOMLDecodeError) -> str:
    """tomllib's error as one Spanish phrase, with the line and column."""
    message = str(error)
    where = _POSITION.search(message)
    detail = _POSITION.sub("", message).rstrip()
    at_end = detail.endswith(_AT_END)
    detail = detail.removesuffix(_AT_END).rstrip()
    spanish = next((es for en, es in _TOML_ES if detail.startswith(en)), None)
    what = f"el TOML no es válido: {spanish}" if spanish else f"el TOML no es válido ({detail})"
    if where:
        return f"línea {where[1]}, columna {where[2]}: {what}"
    return f"al final del archivo: {what}" if at_end else what
