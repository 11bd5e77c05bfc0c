"""``StopSignals`` (analysis/workers.py), in this process: what a long run's ``with`` block
does to the signal handlers, and when a stop is raised.

The commands' own stops (Ctrl-C and SIGTERM sent to real processes) are tested with each
command; these are the handlers themselves, which no process test sees: a run that leaves its
handlers behind would stop, in a notebook or a test that calls it twice, the next thing that
runs instead of itself."""

from __future__ import annotations

import os
import signal

import pytest

from deathangel.analysis.workers import StopSignals


def _mine(signum: int, frame: object) -> None:
    raise AssertionError("the run's own handler should be in place")


def test_the_run_handles_both_signals_and_puts_the_old_handlers_back() -> None:
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGTERM, _mine)
    try:
        with StopSignals() as stop:
            assert signal.getsignal(signal.SIGINT) == stop.handle
            assert signal.getsignal(signal.SIGTERM) == stop.handle
        assert signal.getsignal(signal.SIGINT) is before[signal.SIGINT]
        assert signal.getsignal(signal.SIGTERM) is _mine
    finally:
        signal.signal(signal.SIGTERM, before[signal.SIGTERM])


def test_the_old_handlers_come_back_when_the_run_fails() -> None:
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(ValueError, match="a run's error"), StopSignals():
        raise ValueError("a run's error")
    assert signal.getsignal(signal.SIGINT) is before


def test_a_stop_outside_at_once_waits_for_the_next_check() -> None:
    with StopSignals() as stop:
        os.kill(os.getpid(), signal.SIGTERM)  # handled at once, in this (the main) thread
        assert stop.requested
        # Not raised where it landed (a write could have been under way): at the check.
        with pytest.raises(KeyboardInterrupt):
            stop.check()


def test_a_stop_just_before_at_once_is_raised_on_entering_it() -> None:
    with StopSignals() as stop:
        os.kill(os.getpid(), signal.SIGINT)
        with pytest.raises(KeyboardInterrupt), stop.at_once():
            raise AssertionError("the stop should be raised before the stretch begins")
        assert not stop.waiting


def test_a_stop_inside_at_once_is_raised_where_it_lands() -> None:
    with StopSignals() as stop:
        reached = []
        with pytest.raises(KeyboardInterrupt), stop.at_once():
            os.kill(os.getpid(), signal.SIGTERM)
            reached.append("after the signal")
        assert reached == []
