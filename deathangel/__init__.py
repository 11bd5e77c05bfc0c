"""deathangel: a simulator of the co-op card game Space Hulk: Death Angel.

The few names most users need are re-exported here; everything else lives in modules whose
names say what they hold.
"""

from __future__ import annotations

__version__ = "0.1.0"
