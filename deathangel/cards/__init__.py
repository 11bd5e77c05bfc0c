"""The card database: the typed model of every card, the TOML file format, its strict
loading and checks, the catalogue of effect names cards may use, and cards' facts in words."""

from deathangel.cards.catalogue import BASE_EFFECTS, EffectCatalogue, EffectSpec
from deathangel.cards.load import base_card_dir, load_base, load_database, read_file
from deathangel.cards.model import CardDatabase

__all__ = [
    "BASE_EFFECTS",
    "CardDatabase",
    "EffectCatalogue",
    "EffectSpec",
    "base_card_dir",
    "load_base",
    "load_database",
    "read_file",
]
