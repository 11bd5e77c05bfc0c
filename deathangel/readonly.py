"""Read-only containers for what the game shares with its players.

A player is handed the game's card tables and abilities with every observation: they are the
same objects the engine reads, shared because copying them at every decision would cost far
more than the decision. Shared is only honest if nobody can change them, so what they hold is
immutable: tuples, frozen attrs classes, and the :class:`ReadOnlyDict` here, and the objects
themselves are :class:`Sealed` once built. (An in-process bot can still break any lock on
purpose — ``dict.__setitem__(d, k, v)`` — as it can read its process's memory; that is cheating
by design, answered by ``--isolate``, not an accident these guard against.)

Why a ``dict`` subclass rather than :class:`types.MappingProxyType`: lookups are the engine's
hot path, and a subclass that does not override ``__getitem__`` is looked up at a plain dict's
speed, while a proxy adds a call per lookup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ReadOnlyDict(dict[K, V]):
    """A dict that refuses every change after it is made (``TypeError``)."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(f"this {type(self).__name__} is read-only: it is shared with the game")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (worker processes) rebuilds it from a plain dict, not item by item.
        return (type(self), (dict(self),))

    def __copy__(self) -> ReadOnlyDict[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ReadOnlyDict[K, V]:
        return self


def frozen_data(value: Any) -> Any:
    """``value`` with every list made a tuple and every mapping a :class:`ReadOnlyDict`, all
    the way down (card files' parameters: numbers, strings, lists, tables)."""
    if isinstance(value, Mapping):
        return ReadOnlyDict({k: frozen_data(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen_data(v) for v in value)
    return value


class Sealed:
    """An object whose attributes cannot be set or deleted once :meth:`seal` is called."""

    __slots__ = ()

    def seal(self) -> None:
        """Refuse every later change of an attribute (idempotent)."""
        object.__setattr__(self, "_sealed", True)

    def __setattr__(self, name: str, value: object) -> None:
        if getattr(self, "_sealed", False):
            raise AttributeError(
                f"{type(self).__name__}.{name} cannot be set: it is shared with the game"
            )
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if getattr(self, "_sealed", False):
            raise AttributeError(
                f"{type(self).__name__}.{name} cannot be deleted: it is shared with the game"
            )
        object.__delattr__(self, name)
