"""``docs/protocol.md``'s message tables, rendered from the models (``protocol/``).

The doc is written by hand around blocks that are rendered here: ``<!-- model: NAME -->`` …
``<!-- end -->`` holds the table of one model's fields (name, type and limits, default for what a
client sends, meaning from the field's description), and ``<!-- frames: client -->`` /
``<!-- frames: server -->`` the list of the WebSocket's frames with what each is for (the
models' docstrings). ``python -m taverntable.web.protocol.doc`` renders the blocks again;
``--check`` says which are out of date (a test runs it), and which models the doc lacks.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from . import Strict, accounts, api, frames, replay, review, summary

BLOCK = re.compile(r"(<!-- (model|frames): ([\w-]+) -->\n)(.*?)(<!-- end -->)", re.DOTALL)
# What a client sends: their tables give each field's default ("required" when it has none).
SENT_BY_CLIENTS = frozenset(
    {
        "SeatSpec",
        "CreateTable",
        "JoinTable",
        "CreateLesson",
        "MoveMessage",
        "PingMessage",
        "WhyMessage",
        "SayMessage",
        "SignUp",
        "SignIn",
        "ChangePassword",
        "DeleteAccount",
    }
)
FRAMES: Mapping[str, Sequence[type[BaseModel]]] = {
    "client": get_args(get_args(frames.ClientMessage)[0]),
    "server": get_args(frames.Outgoing),
}
SCALARS = {str: "text", int: "integer", float: "number", bool: "true/false", type(None): "null"}


def protocol_models() -> dict[str, type[BaseModel]]:
    """Every message model of ``protocol/``, by name, in the order of their modules."""
    found: dict[str, type[BaseModel]] = {}
    for module in (api, accounts, summary, frames, replay, review):
        for name, value in vars(module).items():
            if (
                isinstance(value, type)
                and issubclass(value, Strict)
                and value.__module__ == module.__name__
            ):
                found[name] = value
    return found


def type_text(hint: Any) -> str:
    """A field's type as a client author reads it: ``integer or null``, ``list of SeatInfo``."""
    origin = get_origin(hint)
    if hint in SCALARS:
        return SCALARS[hint]
    if hint is Any:
        return "anything"
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return f"[{hint.__name__}](#{hint.__name__.lower()})"
    if origin is Literal:
        return " or ".join(f"`{json.dumps(v, ensure_ascii=False)}`" for v in get_args(hint))
    if origin in (typing.Union, types.UnionType):
        *some, last = [type_text(arg) for arg in get_args(hint)]
        return f"{', '.join(some)} or {last}"
    if origin is list:
        return f"list of {type_text(get_args(hint)[0])}"
    if origin is dict:
        values = get_args(hint)[1]
        return "object" if values is Any else f"object of {type_text(values)}"
    raise TypeError(f"no words for the type {hint!r} yet: add them to doc.type_text")


def limits_text(field: FieldInfo) -> str:
    """A field's limits from its constraints: ``1 to 1,000,000``, ``at most 200 characters``."""
    low = high = fewest = most = None
    for item in field.metadata:
        match item:
            case annotated_types.Ge(ge=value):
                low = value
            case annotated_types.Le(le=value):
                high = value
            case annotated_types.Lt(lt=int(value)):
                high = value - 1
            case annotated_types.MinLen(min_length=value):
                fewest = value
            case annotated_types.MaxLen(max_length=value):
                most = value
            case _:
                raise TypeError(f"no words for the limit {item!r} yet: add them to doc.limits_text")
    unit = " characters" if field.annotation is str else " items"
    return ", ".join(x for x in (_range(low, high, ""), _range(fewest, most, unit)) if x)


def _range(low: Any, high: Any, unit: str) -> str:
    if low is not None and high is not None:
        return f"{low:,} to {high:,}{unit}"
    if low is not None:
        return f"at least {low:,}{unit}"
    if high is not None:
        return f"at most {high:,}{unit}"
    return ""


def default_text(field: FieldInfo) -> str:
    if field.default_factory is not None:
        return f"`{json.dumps(field.default_factory())}`"  # type: ignore[call-arg]
    if field.default is PydanticUndefined:
        return "required"
    return f"`{json.dumps(field.default, ensure_ascii=False)}`"


def model_table(model: type[BaseModel]) -> str:
    """One model's heading, docstring and table of fields."""
    sent = model.__name__ in SENT_BY_CLIENTS
    head = (
        "| field | type | default | meaning |\n|---|---|---|---|"
        if sent
        else ("| field | type | meaning |\n|---|---|---|")
    )
    rows = []
    for name, field in model.model_fields.items():
        kind = type_text(field.annotation)
        limits = limits_text(field)
        if limits:
            kind += f", {limits}"
        meaning = field.description or ""
        if field.exclude_if is not None:
            meaning += " (left out when null)"
        cells = [f"`{name}`", kind, *([default_text(field)] if sent else []), meaning]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    doc = " ".join(inspect.cleandoc(model.__doc__ or "").split())
    return f"#### `{model.__name__}`\n\n{doc}\n\n{head}\n" + "\n".join(rows) + "\n"


def frames_table(direction: str) -> str:
    """The frames a side sends: each one's ``type`` and what it is for."""
    rows = []
    for model in FRAMES[direction]:
        (kind,) = get_args(model.model_fields["type"].annotation)
        doc = " ".join(inspect.cleandoc(model.__doc__ or "").split())
        rows.append(f"| [`{kind}`](#{model.__name__.lower()}) | {doc} |")
    return "| type | what it is |\n|---|---|\n" + "\n".join(rows) + "\n"


def render(text: str, models: Mapping[str, type[BaseModel]] | None = None) -> str:
    """``text`` with every block rendered again from ``models`` (default: the protocol's)."""
    known = protocol_models() if models is None else models

    def block(m: re.Match[str]) -> str:
        kind, name = m.group(2), m.group(3)
        if kind == "frames":
            body = frames_table(name)
        elif name in known:
            body = model_table(known[name])
        else:
            raise KeyError(f"the doc names a model {name!r} that protocol/ does not have")
        return m.group(1) + body + m.group(5)

    return BLOCK.sub(block, text)


def problems(text: str, models: Mapping[str, type[BaseModel]] | None = None) -> list[str]:
    """What is out of date in the doc ``text``: blocks that render otherwise, and models it
    has no block for."""
    known = protocol_models() if models is None else models
    out = []
    rendered = render(text, known)
    if rendered != text:
        now = {m.group(3): m.group(0) for m in BLOCK.finditer(rendered)}
        out += [
            f"the table of {m.group(3)} is out of date"
            for m in BLOCK.finditer(text)
            if now[m.group(3)] != m.group(0)
        ]
    named = {m.group(3) for m in BLOCK.finditer(text) if m.group(2) == "model"}
    out += [f"the doc has no table of {name}" for name in known if name not in named]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m taverntable.web.protocol.doc",
        description="Render docs/protocol.md's message tables from the protocol's models.",
    )
    p.add_argument("path", nargs="?", default="docs/protocol.md", type=Path)
    p.add_argument("--check", action="store_true", help="only say what is out of date")
    args = p.parse_args(argv)
    try:
        text = args.path.read_text(encoding="utf-8")
        found = problems(text)
        if args.check:
            for line in found:
                print(f"{args.path}: {line}", file=sys.stderr)
            return 1 if found else 0
        args.path.write_text(render(text), encoding="utf-8")
    except (OSError, KeyError, TypeError) as e:
        print(f"protocol doc: {e}", file=sys.stderr)
        return 2
    missing = [line for line in found if "has no table" in line]
    for line in missing:
        print(f"{args.path}: {line} (add a <!-- model: NAME --> block)", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
