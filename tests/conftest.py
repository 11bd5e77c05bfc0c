"""Every test runs with its own user data folder, so that games saved as they are played
(``deathangel play`` autosaves) never land in the real one, and no test sees another's."""

from __future__ import annotations

from pathlib import Path

import pytest

from deathangel.tui.saves import DATA_DIR_ENV


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder for this test (subprocesses inherit it through the environment)."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv(DATA_DIR_ENV, str(folder))
    return folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``long`` (several seconds of a worker's time each) go first, the rest in
    their order: with two workers sharing the suite, a long test met last kept one worker busy
    while the other had nothing left, which made the whole run that much longer."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
