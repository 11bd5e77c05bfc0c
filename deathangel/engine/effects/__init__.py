"""Card abilities: implementations of the effect names card files use.

:class:`deathangel.engine.effects.dispatch.CardAbilities` wires them into the engine's timing
windows; :mod:`.actions`, :mod:`.events` and :mod:`.locations` hold the behaviours by kind, and
:mod:`.common` the pieces they share.
"""
