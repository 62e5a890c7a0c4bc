"""``PlugIn[T]``: a lazy, typed reference to a value in a layer above the engine (see the
package's docstring)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Generic, TypeVar

from taverntable.engine import Bot, TavernError

T = TypeVar("T")
_MISSING = object()


class PlugInError(TavernError, LookupError):
    """A plug-in whose module or attribute is missing, or whose value is not of its kind."""


def is_class(value: object) -> bool:
    """The check of a plug-in that names a class (a bot, built by the layer with settings)."""
    return isinstance(value, type)


@dataclass(frozen=True)
class PlugIn(Generic[T]):
    """A lazy, typed reference to a value in a layer above the engine.

    ``path`` is ``module:attribute``; ``kind`` says what the value must be, for the message;
    ``check`` tells a value of that kind (``isinstance`` of a runtime-checkable protocol, or
    ``callable``). The value is imported on the first ``load`` and kept.
    """

    path: str
    kind: str
    check: Callable[[object], bool] = field(repr=False, compare=False)
    _loaded: list[T] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        module, colon, attribute = self.path.partition(":")
        if not (module and colon and attribute):
            raise ValueError(f"a plug-in is 'module:attribute', not {self.path!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without what it loaded: a worker process loads it again by its path."""
        return (PlugIn, (self.path, self.kind, self.check))

    def load(self) -> T:
        """The value named, imported now if it was not yet; PlugInError if it is missing or
        not a ``kind``. ImportError of a dependency the module needs (an optional extra) is
        raised unchanged, so that a layer can say which extra to install."""
        if self._loaded:
            return self._loaded[0]
        module, _, attribute = self.path.partition(":")
        try:
            found = import_module(module)
        except ModuleNotFoundError as e:
            if e.name is None or not module.startswith(e.name):
                raise  # the module exists but needs what is not installed
            raise PlugInError(f"plug-in {self.path}: no module {module}") from None
        value: Any = getattr(found, attribute, _MISSING)
        if value is _MISSING:
            raise PlugInError(f"plug-in {self.path}: {module} has no {attribute}")
        if not self.check(value):
            raise PlugInError(f"plug-in {self.path} is not a {self.kind}: {value!r:.80}")
        self._loaded.append(value)
        loaded: T = value
        return loaded


def bot(path: str) -> PlugIn[type[Bot]]:
    """One of ``Game.bots`` or ``Game.cheats``: the ``module:Class`` of a bot, which the layer
    builds (with the arena's settings, ``lab/arena/bots.py``)."""
    return PlugIn(path, "bot class", is_class)
