"""The version of deathangel, in one place: packaging, saves and ``--version`` read it."""

__version__ = "0.1.0"
