"""The one owner of randomness in a game: named streams derived from one seed, and the die.

Each deck and the die draw from their own stream, so two strategies given the same seed face
the same genestealers, events and locations even when their decisions make them roll a
different number of dice (common random numbers, for paired comparisons of strategies).
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence, Sequence
from math import floor
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")

STREAMS: tuple[str, ...] = ("setup", "genestealers", "events", "locations", "blips", "dice")
"""Stream names: ``setup`` deals teams and the formation; ``blips`` shuffles cards returned
into a blip pile; each deck reshuffles with its own stream; ``dice`` rolls the combat die."""

DIE_FACES = range(6)
"""The faces of the combat die, 0–5, each as likely as any other (RULES §1)."""
FACE_COUNT = len(DIE_FACES)
SKULL_FACES = frozenset({1, 2, 3})
"""Faces of the combat die that also show a skull (RULES §1)."""


def shuffle(cards: MutableSequence[Any], rng: random.Random) -> None:
    """Fisher–Yates with ``rng.random()``: measured about 6x faster than ``rng.shuffle``
    (whose rejection sampling runs in Python) for the forward model's deals; the bias of a
    53-bit float over at most a few dozen cards is far below anything a game can show."""
    pick = rng.random
    n = len(cards)
    steps = _STEPS.get(n)
    if steps is None:
        steps = _STEPS[n] = tuple((i, float(i + 1)) for i in range(n - 1, 0, -1))
    for i, size in steps:
        # floor(), not int(): the same integer for a draw of 0 or more, by a plain call of a
        # C function where int() goes through the type's constructor (a step measured 1,080
        # instructions instead of 1,550).
        j = floor(pick() * size)
        cards[i], cards[j] = cards[j], cards[i]


_STEPS: dict[int, tuple[tuple[int, float], ...]] = {}
""":func:`shuffle`'s steps for each pile size met so far: the index and the float it scales a
draw by, read from a table instead of computed per card (the same draws pick the same cards;
a deal's two shuffles measured 0.7x the time, 12% fewer instructions)."""


_BITS = tuple(n.bit_length() for n in range(129))
"""``n.bit_length()`` for the sizes of every pile in the game: a tuple index instead of a
method call per card (with the set-up's location ids read from the table, making 8,000
games of 1-6 players measured 0.90x the CPU)."""


def same_shuffle(rng: random.Random, cards: MutableSequence[Any]) -> None:
    """Exactly ``rng.shuffle(cards)``: the same swaps from the same draws, so every seed deals
    as it always has (``tests/engine/test_randomness.py`` holds the two side by side).

    CPython's ``shuffle`` calls ``_randbelow`` once per card, a Python function drawing with
    ``getrandbits`` and rejecting values out of range; written out here it is one call fewer
    per card (measured: a solo game's set-up, two shuffles of 30-40 cards, 0.6x the
    instructions)."""
    getrandbits = rng.getrandbits
    bits = _BITS if len(cards) <= len(_BITS) else [n.bit_length() for n in range(len(cards) + 1)]
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def same_choice(rng: random.Random, options: Sequence[T]) -> T:
    """Exactly ``rng.choice(options)`` (see :func:`same_shuffle`)."""
    n = len(options)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return options[j]


StreamPositions = dict[str, tuple[Any, ...] | None]
"""Where each stream stands (:meth:`Streams.snapshot`): a ``random.Random`` state, or ``None``
for a stream never drawn from (still as its seed made it)."""

_new_random = random.Random.__new__


class Streams:
    """Independent ``random.Random`` streams keyed by name, all fixed by one seed.

    Cheap to snapshot and restore, because games take a snapshot at every restart point:

    - a stream is seeded on first use (six SHA-512 seedings were a twentieth of a solo game,
      and the ``blips`` stream is seldom drawn from);
    - a snapshot reuses the position it took last time for a stream not drawn from since
      (``Random.getstate`` builds a 625-tuple: a few microseconds each, at every point);
    - a restored stream is rebuilt only when it is first drawn from, by ``Random.__new__``
      and ``setstate`` (``Random(0)`` first seeds a generator only to overwrite it: measured
      twice the cost).

    Draws through :meth:`shuffle`, :meth:`choice` and :meth:`sample` are seen; a stream handed
    out by ``streams[name]`` (the die's) is not, so its position is read at every snapshot.
    """

    __slots__ = ("_die", "_handed", "_known", "_rngs", "seed")

    def __init__(self, seed: int, _rngs: dict[str, random.Random] | None = None) -> None:
        self.seed = seed
        self._die: Die | None = None
        """A forked die whose generator is the ``dice`` stream (:meth:`restore`)."""
        self._rngs: dict[str, random.Random] = {} if _rngs is None else _rngs
        self._known: StreamPositions = {}
        """The position of each stream not drawn from since it was last read or restored."""
        self._handed: set[str] = set()
        """Streams handed out whole (their draws are not seen)."""

    @classmethod
    def shared(cls, rng: random.Random) -> Streams:
        """Every stream drawing from the one ``rng``: a forward model's imagined game takes
        its future from the searching bot's own stream. Seeding six new generators instead
        was measured at half the cost of a determinization. Such streams cannot be snapshot
        faithfully (they share a state), so games built on them are not cloned."""
        return cls(0, dict.fromkeys(STREAMS, rng))

    def _rng(self, name: str) -> random.Random:
        """The named stream, made now if it was not yet: seeded, or restored to its position."""
        rng = self._rngs.get(name)
        if rng is None:
            if name not in STREAMS:
                raise KeyError(name)
            position = self._known.get(name)
            if name == "dice" and self._die is not None:
                rng = self._die.generator()
            elif position is None:
                rng = random.Random(self._seed_text(name))
            else:
                rng = _new_random(random.Random)
                rng.setstate(position)
            self._rngs[name] = rng
        return rng

    def _seed_text(self, name: str) -> str:
        # A string seed goes through SHA-512 in CPython: stable across runs and machines,
        # independent of PYTHONHASHSEED.
        return f"deathangel:{self.seed}:{name}"

    def die(self) -> Die:
        """The combat die on the ``dice`` stream, told where that stream starts, so that it
        can fork without reading its generator (:meth:`Die.fork`)."""
        origin: DieOrigin | None = None
        if "dice" not in self._rngs:  # not made yet: its seed or its known position says
            origin = self._known.get("dice") or self._seed_text("dice")
        return Die(self["dice"], origin)

    def __getitem__(self, name: str) -> random.Random:
        rng = self._rng(name)
        self._handed.add(name)
        self._known.pop(name, None)
        return rng

    def shuffle(self, name: str, cards: MutableSequence[Any]) -> None:
        """Shuffle in place with the named stream."""
        rng = self._rng(name)
        self._known.pop(name, None)
        same_shuffle(rng, cards)

    def choice(self, name: str, options: Sequence[T]) -> T:
        """Pick one with the named stream."""
        rng = self._rng(name)
        self._known.pop(name, None)
        return same_choice(rng, options)

    def sample(self, name: str, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct picks, in order, with the named stream."""
        rng = self._rng(name)
        self._known.pop(name, None)
        return rng.sample(population, k)

    def position(self, name: str) -> tuple[Any, ...] | None:
        """Where one stream stands (``None``: never drawn from, as its seed made it)."""
        known = self._known
        if name in known:
            return known[name]
        rng = self._rngs.get(name)
        if rng is None:
            if name != "dice" or self._die is None:
                return None  # never made: its seed alone says where it stands
            rng = self._rng(name)
        position = rng.getstate()
        if name not in self._handed:
            known[name] = position
        return position

    def snapshot(self, skip: str | None = None) -> StreamPositions:
        """Every stream's position (but ``skip``'s): restore with :meth:`restore`."""
        return {name: self.position(name) for name in STREAMS if name != skip}

    @classmethod
    def restore(cls, seed: int, snapshot: StreamPositions, die: Die | None = None) -> Streams:
        """Streams that continue exactly where the snapshot was taken (each rebuilt when
        first drawn from); ``die``, a forked die (:meth:`Die.fork`), stands for the ``dice``
        stream: its generator is that stream."""
        streams = cls(seed)
        streams._known = {name: position for name, position in snapshot.items() if position}
        streams._die = die
        return streams

    def copy(self) -> Streams:
        """An independent copy that will produce the same future draws."""
        return Streams.restore(self.seed, self.snapshot())


class Roll(NamedTuple):
    """One roll of the combat die, with everything a rule may read (RULES §14.1).

    ``faces`` holds the whole history: the first roll and every reroll; the last one counts.
    A named tuple (immutable, made in C): every attack and defence makes one.
    """

    faces: tuple[int, ...]
    """Every face shown, first roll first; the last is the result."""
    reason: str
    """Why the die was rolled, e.g. ``"Brother Leon attacks left swarm at 2"``."""
    modifier: int = 0
    """Added to the face for comparisons (−1 per Brood Lord in a defence)."""

    @property
    def face(self) -> int:
        """The face that counts: the last one rolled."""
        return self.faces[-1]

    @property
    def skull(self) -> bool:
        """Whether the face that counts shows a skull."""
        return self.faces[-1] in SKULL_FACES

    @property
    def value(self) -> int:
        """Face plus modifier: what is compared with a swarm's size."""
        return self.faces[-1] + self.modifier

    @property
    def rerolls(self) -> int:
        """How many rerolls were made."""
        return len(self.faces) - 1

    def __str__(self) -> str:
        return f"{self.reason}: {self.text()}"

    def text(self, *, skulls: bool = True) -> str:
        """The roll in words: ``"rolled 0, rerolled 2 (skull)"``; the skull is written as a
        word (``☠`` read as death), and left out with ``skulls=False`` where no rule reads
        it (a defence compares the value); a modifier is shown with the value it makes."""

        def face(f: int) -> str:
            return f"{f} (skull)" if skulls and f in SKULL_FACES else str(f)

        words = "rolled " + face(self.faces[0])
        for f in self.faces[1:]:
            words += f", rerolled with a support token: {face(f)}"
        if self.modifier:
            lords = "Brood Lord" if self.modifier == -1 else "Brood Lords"
            words += f" {self.modifier:+d} ({lords}) = {self.value}".replace("-", "−")
        return words


DieOrigin = tuple[Any, ...] | str
"""Where a die's generator started: a ``random.Random`` state, or the text it was seeded
with."""


class Die:
    """The combat die of one game, drawing from the ``dice`` stream.

    It counts the draws it makes since its generator's *origin* (where that stood when the die
    was made, if known), so that :meth:`fork` gives a clone a die that rolls on exactly like
    this one without reading the generator: ``getstate`` builds a 625-tuple of new integers
    and ``setstate`` reads it back, together a third of a clone's instructions (measured
    with cachegrind; clones/s 1.2x mid-round, 1.7x at a round start).
    """

    __slots__ = ("_bits", "_drawn", "_origin", "_rng")

    def __init__(self, rng: random.Random, origin: DieOrigin | None = None) -> None:
        self._rng: random.Random | None = rng
        self._bits: Callable[[int], int] = rng.getrandbits
        self._origin = origin
        """Where ``rng`` stood when the die was made (``None``: not known, read at the
        first :meth:`fork`)."""
        self._drawn = 0
        """Draws from ``rng`` since :attr:`_origin`: one 32-bit word each."""

    def roll(self) -> int:
        """One face of :data:`DIE_FACES`."""
        # Exactly rng.randrange(6) (see same_shuffle), without its two Python calls: three
        # bits, drawn again while they show 6 or 7.
        face: int = self._bits(3)
        drawn = 1
        while face >= FACE_COUNT:
            # Read again, not held in a local: a forked die's first draw replaces it.
            face = self._bits(3)
            drawn += 1
        self._drawn += drawn
        return face

    def copy_with(self, streams: Streams) -> Die:
        """The same die bound to a copied set of streams."""
        return Die(streams["dice"])

    def fork(self) -> Die:
        """An independent die that will roll exactly the faces this one rolls from now on.

        It is made from this die's origin and count of draws, not from its generator: its
        own generator is built at its first roll (a clone that never rolls never pays for
        one), by ``setstate`` and one ``getrandbits`` that skips the draws made since.
        """
        if self._origin is None:
            # Made from a bare generator: read where it stands once; later forks count on.
            assert self._rng is not None
            self._origin = self._rng.getstate()
            self._drawn = 0
        die = _new_die(Die)
        die._rng = None
        die._bits = die._first_bits  # replaced by the generator's own at the first roll
        die._origin = self._origin
        die._drawn = self._drawn
        return die

    def generator(self) -> random.Random:
        """The generator this die draws from (a forked die's is built now)."""
        rng = self._rng
        if rng is None:
            origin = self._origin
            if isinstance(origin, str):
                rng = random.Random(origin)
            else:
                assert origin is not None
                rng = _new_random(random.Random)
                rng.setstate(origin)
            if self._drawn:
                # getrandbits(32n) draws exactly n 32-bit words, as n draws of 3 bits do.
                rng.getrandbits(32 * self._drawn)
            self._rng = rng
            self._bits = rng.getrandbits
        return rng

    def _first_bits(self, k: int) -> int:
        """A forked die's first draw: build its generator where its original's stood."""
        return self.generator().getrandbits(k)


_new_die = object.__new__


class ScriptedDie(Die):
    """A die that shows given faces in order: for rule tests with known answers.

    Running out of faces is an error, so a test notices an unexpected extra roll.
    """

    __slots__ = ("faces", "index")

    def __init__(self, faces: Sequence[int]) -> None:
        for face in faces:
            if face not in DIE_FACES:
                raise ValueError(f"a die face is {DIE_FACES[0]}-{DIE_FACES[-1]}, not {face!r}")
        self.faces = list(faces)
        self.index = 0

    def roll(self) -> int:
        if self.index >= len(self.faces):
            raise AssertionError(f"scripted die ran out after {len(self.faces)} rolls")
        face = self.faces[self.index]
        self.index += 1
        return face

    @property
    def remaining(self) -> list[int]:
        """Faces not yet rolled."""
        return self.faces[self.index :]

    def copy_with(self, streams: Streams) -> Die:
        clone = ScriptedDie(self.faces)
        clone.index = self.index
        return clone
