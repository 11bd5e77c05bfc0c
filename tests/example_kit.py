"""The scripts of docs/examples/, loaded as modules so their functions can be tested.

They are run by people as ``python docs/examples/NAME.py``, not installed: a test loads the
file by its path, as that command would."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def load_example(name: str) -> ModuleType:
    """``docs/examples/NAME.py`` as a fresh module."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
