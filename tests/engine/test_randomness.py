"""The streams and the die draw exactly what CPython's ``random`` would: every seed deals and
rolls as it always has, however the drawing is written (``engine/randomness.py``)."""

from __future__ import annotations

import random

import pytest

from deathangel.engine.randomness import (
    STREAMS,
    Die,
    Streams,
    same_choice,
    same_shuffle,
    shuffle,
)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 31, 40, 64, 65])
def test_same_shuffle_is_random_shuffle(size: int) -> None:
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        same_shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 30, 128, 129, 200])
def test_the_deals_shuffle_is_fisher_yates_on_random(size: int) -> None:
    """The forward model's shuffle, with its table of steps (made at a size's first shuffle,
    read at the next), swaps as the plain loop over ``rng.random()`` does: deals stay as
    they were."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffle(a, ours)
        for i in range(size - 1, 0, -1):
            j = int(theirs.random() * (i + 1))
            b[i], b[j] = b[j], b[i]
        assert a == b
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13])
def test_same_choice_is_random_choice(size: int) -> None:
    ours, theirs = random.Random(5), random.Random(5)
    options = [f"card {i}" for i in range(size)]
    for _ in range(200):
        assert same_choice(ours, options) == theirs.choice(options)
    assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        same_choice(ours, [])


def test_the_die_rolls_as_randrange() -> None:
    rng = random.Random(11)
    die = Die(random.Random(11))
    assert [die.roll() for _ in range(500)] == [rng.randrange(6) for _ in range(500)]


def test_streams_seeded_on_first_use_match_streams_seeded_at_once() -> None:
    lazy = Streams(42)
    for name in STREAMS:
        eager = random.Random(f"deathangel:42:{name}")
        assert lazy[name].random() == eager.random()


def test_a_snapshot_restores_every_stream_drawn_or_not() -> None:
    streams = Streams(3)
    cards = list(range(30))
    streams.shuffle("genestealers", cards)
    dice = streams["dice"]
    dice.random()
    saved = streams.snapshot()
    assert saved["blips"] is None  # never drawn: its seed alone says where it stands
    copy = Streams.restore(3, saved)
    for name in STREAMS:
        assert copy[name].random() == streams[name].random()


def test_a_snapshot_sees_draws_made_after_the_last_one() -> None:
    streams = Streams(9)
    first = streams.snapshot()
    streams.shuffle("events", list(range(12)))
    streams.choice("locations", [1, 2, 3])
    streams.sample("setup", ["a", "b", "c", "d"], 2)
    second = streams.snapshot()
    for name in ("events", "locations", "setup"):
        assert second[name] != first[name]
    # A stream handed out whole is read again at every snapshot.
    streams["dice"].random()
    assert streams.snapshot()["dice"] != second["dice"]
    again = Streams.restore(9, second)
    assert again["events"].random() == Streams.restore(9, second)["events"].random()


@pytest.mark.parametrize("made", ["bare", "seeded", "restored"])
def test_a_forked_die_rolls_on_exactly_like_its_original(made: str) -> None:
    # Faces 6 and 7 of three bits are drawn again (about a quarter of the rolls): a fork must
    # count those draws too, its first roll's included.
    if made == "bare":
        original, twin = Die(random.Random(4)), random.Random(4)
    elif made == "seeded":
        original, twin = Streams(4).die(), random.Random("deathangel:4:dice")
    else:
        streams = Streams(4)
        streams["dice"].random()
        positions = streams.snapshot()
        original, twin = Streams.restore(4, positions).die(), random.Random("deathangel:4:dice")
        twin.random()
    faces = [twin.randrange(6) for _ in range(300)]
    forks = []
    for i in range(150):
        forks.append((i, original.fork()))
        assert original.roll() == faces[i]
    # A fork of a fork that has rolled.
    first, second = forks[10][1], forks[20][1]
    assert [first.roll() for _ in range(5)] == faces[10:15]
    forks.append((15, first.fork()))
    forks.append((20, second.fork()))
    for i, fork in forks[:10] + forks[11:]:
        assert [fork.roll() for _ in range(300 - i)] == faces[i:], f"the fork after {i} rolls"
    # The original rolls on, untouched by its forks' rolls.
    assert [original.roll() for _ in range(150)] == faces[150:]


def test_a_forked_die_is_the_dice_stream_of_the_streams_it_is_restored_with() -> None:
    streams = Streams(8)
    die = streams.die()
    for _ in range(40):
        die.roll()
    fork = die.fork()
    copy = Streams.restore(8, streams.snapshot(skip="dice"), fork)
    assert copy.position("dice") == streams["dice"].getstate()
    assert copy["dice"] is fork.generator()
    assert [fork.roll() for _ in range(50)] == [die.roll() for _ in range(50)]
