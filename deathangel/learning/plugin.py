"""The plugin ``policy``: a trained agent's policy file as a strategy any seat can play.

It is a plugin, named like an expansion (``--with policy``), because strategies by name are
offered through the plugin hooks, and the learning room, where the encoding lives, sits above
the plugin room: the base game cannot offer it without importing upwards. It adds no cards,
so games with it are the games without it, seed for seed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from deathangel.cards.manifest import Manifest
from deathangel.plugins.hookspecs import API_VERSION, hookimpl


@hookimpl
def deathangel_manifest() -> Manifest:
    return Manifest(
        api=API_VERSION,
        title="Trained policies",
        summary="The strategy policy:model=FILE.npz, a trained agent at a seat (docs/learning.md).",
    )


def policy(seed: int = 0, model: Path = Path()) -> Any:
    """A trained agent: the legal action its policy file rates highest (docs/learning.md).

    Its choices depend only on the file and what its seat sees; ``seed`` is not used.

    :param model: the policy file (.npz) to play, as docs/examples/train_maskable_ppo.py
        --save writes it
    """
    if model == Path():
        raise ValueError("name the policy file: policy:model=FILE.npz")
    from deathangel.learning.policy import PolicyPlayer, cached_policy

    return PolicyPlayer(cached_policy(model), name=str(model))


@hookimpl
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    return {"policy": policy}
