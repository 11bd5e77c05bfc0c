"""Run these tests with the main suite (the package folder on the path) or alone once the
package is installed (`pytest plugins/deathangel-variants/tests`)."""

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("deathangel_variants") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
