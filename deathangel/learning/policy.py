"""A trained agent as a seat: a policy over the action table plays any seat of any command.

A learning researcher trains through an environment, which hands the agent the encoded
observation and the legal-action mask and takes back an action index. To measure that agent
against the bots on paired seeds (``deathangel tournament``, with its intervals and McNemar
test), it has to sit at a seat the way the bots do. :class:`PolicyPlayer` does that for any
function ``policy(vector, mask) -> index``: at each decision it encodes its seat's
observation with the same encoder and action table the environments use, and answers with
the option the chosen index stands for. It reads the observation only, so it knows no more
than the environment told the agent.

:class:`MlpPolicy` is such a function read from a file: a multi-layer perceptron stored as
numpy arrays in an ``.npz`` (never a pickle: loading it runs no code), with the observation
normalisation it was trained with, the action table's digest and the encoding's version, so
that a policy trained on another card pool or encoding is refused in one line rather than
playing nonsense. The file format is :data:`FORMAT`, version :data:`FORMAT_VERSION`;
``docs/learning.md`` describes it, and ``docs/examples/train_maskable_ppo.py --save`` writes it.
The strategy ``policy:model=FILE.npz`` (:mod:`deathangel.learning.plugin`) seats one.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc, "trained policies (the strategy policy)") from None

from deathangel.errors import DeathAngelError, IllegalChoiceError
from deathangel.learning.actions import whole_index
from deathangel.learning.encoding import ENCODING_VERSION, Encoder, encoder

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.observation import Observation
    from deathangel.engine.state import CardTable

FORMAT = "deathangel-policy"
"""The ``format`` a policy file's ``meta`` names."""
FORMAT_VERSION = 1
"""The version of the policy file's layout this deathangel reads."""
ACTIVATIONS: dict[str, Callable[[NDArray[np.float64]], NDArray[np.float64]]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}
"""The hidden layers' activation, by the name a policy file gives it."""

Policy = Callable[[Any, Any], Any]
"""``policy(vector, mask) -> action index``: ``vector`` the encoded observation (float32,
the environments' flat observation), ``mask`` 1 for each legal action (int8); both are new
arrays the policy may keep or change."""


class PolicyFileError(DeathAngelError, ValueError):
    """A policy file that cannot be read, is not a policy, or was made for other cards."""


class PolicyPlayer:
    """A seat played by ``policy``: the encoded observation and the mask in, an index out.

    :raises IllegalChoiceError: (from :meth:`choose`) when the policy picks an index that is
        not legal, naming the index, what it means and the decision.
    """

    replays_on_resume = False
    """A policy's choice depends only on the observation (a stochastic policy should draw
    from its own seeded stream), so a resumed game need not ask it about the past."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        """How messages name the policy (its file, for :class:`MlpPolicy`)."""

    def check_table(self, table: CardTable) -> None:
        """The player protocol's optional hook: the commands call it with the games' card
        table before the first game, so a policy trained on other cards is refused before any
        game is played (:meth:`choose` checks again, for callers that never call this)."""
        self._check(encoder(table))

    def _check(self, enc: Encoder) -> None:
        # Optional, looked up by name as the player protocol's hooks are: a policy that knows
        # the card pool it was trained on (MlpPolicy) refuses another one before it answers.
        check = getattr(self.policy, "check_encoder", None)
        if check is not None:
            check(enc)

    def choose(self, observation: Observation | None, decision: Decision) -> Option:
        if observation is None:  # pragma: no cover - the protocol hands one (observes=True)
            raise ValueError("a policy player reads its observation")
        enc = encoder(observation.table)
        self._check(enc)
        legal = enc.actions.legal(decision, observation.state.wounds)
        mask = np.zeros(enc.actions.size, dtype=np.int8)
        mask[legal.indices] = 1
        action = self.policy(enc.encode(observation), mask)
        index = whole_index(action)
        option = legal.option(index) if index is not None else None
        if option is None:
            meaning = ""
            if index is not None and 0 <= index < enc.actions.size:
                meaning = f" ({enc.actions.describe(index)})"
            raise IllegalChoiceError(
                f"{self.name}: chose action {action!r}{meaning}, not legal for "
                f"{decision.kind} (seat {decision.seat}); legal: {sorted(legal.indices)}"
            )
        return option


class MlpPolicy:
    """A multi-layer perceptron read from a policy file: ``logits = W_n(...act(W_1 x + b_1)...)
    + b_n`` over the normalised observation; it picks the legal action of highest logit (the
    lowest index on a tie), as ``predict(deterministic=True)`` of a masked policy does."""

    def __init__(
        self,
        path: Path,
        layers: list[tuple[NDArray[np.float64], NDArray[np.float64]]],
        activation: str,
        meta: dict[str, Any],
        normalise: tuple[NDArray[np.float64], NDArray[np.float64], float] | None,
    ) -> None:
        self.path = path
        self.layers = layers
        self.activation = ACTIVATIONS[activation]
        self.meta = meta
        self.normalise = normalise
        """``(mean, 1 / sqrt(var + epsilon), clip)`` of the observations, or ``None``."""
        self._checked: Encoder | None = None

    @property
    def inputs(self) -> int:
        return int(self.layers[0][0].shape[1])

    @property
    def outputs(self) -> int:
        return int(self.layers[-1][0].shape[0])

    def check_encoder(self, enc: Encoder) -> None:
        """Refuse a game whose card pool or encoding is not the one this policy was trained on.

        :raises PolicyFileError: naming the file and what differs.
        """
        if enc is self._checked:
            return
        digest = enc.actions.digest()
        if self.meta["action_table_digest"] != digest:
            raise PolicyFileError(
                f"{self.path}: trained on another action table (digest "
                f"{str(self.meta['action_table_digest'])[:12]}..., this game's cards give "
                f"{digest[:12]}...): play it with the cards and plugins it was trained with"
            )
        if self.inputs != enc.size or self.outputs != enc.actions.size:
            raise PolicyFileError(
                f"{self.path}: takes {self.inputs} numbers and gives {self.outputs} actions; "
                f"this game encodes {enc.size} and has {enc.actions.size}"
            )
        self._checked = enc

    def __call__(self, vector: Any, mask: Any) -> int:
        x = np.asarray(vector, dtype=np.float64)
        if self.normalise is not None:
            mean, scale, clip = self.normalise
            x = np.clip((x - mean) * scale, -clip, clip)
        last = len(self.layers) - 1
        for i, (weight, bias) in enumerate(self.layers):
            x = weight @ x + bias
            if i < last:
                x = self.activation(x)
        logits = np.where(np.asarray(mask) != 0, x, -np.inf)
        return int(np.argmax(logits))


def load_policy(path: str | Path) -> MlpPolicy:
    """The policy stored at ``path`` (see the module docstring and docs/learning.md).

    :raises PolicyFileError: one line naming the file and what is wrong with it: unreadable,
        not an ``.npz``, an array that would need a pickle, a missing or misshapen array, a
        bad ``meta``, another format version or encoding version.
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except OSError as exc:
        raise PolicyFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise PolicyFileError(f"{path}: not a policy file (.npz of numpy arrays): {exc}") from None
    meta = _meta(path, arrays)
    n = meta["layers"]
    layers = []
    inputs: int | None = None
    for i in range(n):
        weight = _array(path, arrays, f"weight{i}", 2)
        bias = _array(path, arrays, f"bias{i}", 1)
        if inputs is not None and weight.shape[1] != inputs:
            raise PolicyFileError(
                f"{path}: weight{i} takes {weight.shape[1]} inputs, but layer {i - 1} gives "
                f"{inputs}"
            )
        if bias.shape[0] != weight.shape[0]:
            raise PolicyFileError(
                f"{path}: bias{i} has {bias.shape[0]} numbers for weight{i}'s "
                f"{weight.shape[0]} outputs"
            )
        layers.append((weight, bias))
        inputs = int(weight.shape[0])
    extra = sorted(set(arrays) - {"meta", "obs_mean", "obs_var"} - _layer_names(n))
    if extra:
        raise PolicyFileError(f"{path}: unknown array(s) {', '.join(extra)}")
    normalise = _normalise(path, arrays, meta, int(layers[0][0].shape[1]))
    return MlpPolicy(path, layers, meta["activation"], meta, normalise)


def _layer_names(n: int) -> set[str]:
    return {f"{kind}{i}" for i in range(n) for kind in ("weight", "bias")}


def _meta(path: Path, arrays: dict[str, Any]) -> dict[str, Any]:
    raw = arrays.get("meta")
    if raw is None or raw.shape != () or raw.dtype.kind != "U":
        raise PolicyFileError(f"{path}: not a policy file: no 'meta' text (a JSON object)")
    try:
        meta = json.loads(str(raw))
    except json.JSONDecodeError as exc:
        raise PolicyFileError(f"{path}: 'meta' is not JSON: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise PolicyFileError(f"{path}: not a policy file: 'meta' has no format {FORMAT!r}")
    if meta.get("version") != FORMAT_VERSION:
        raise PolicyFileError(
            f"{path}: policy file version {meta.get('version')!r}; this deathangel reads "
            f"version {FORMAT_VERSION}"
        )
    if meta.get("encoding_version") != ENCODING_VERSION:
        raise PolicyFileError(
            f"{path}: trained on encoding version {meta.get('encoding_version')!r}; this "
            f"deathangel encodes version {ENCODING_VERSION}: train again"
        )
    if not isinstance(meta.get("action_table_digest"), str):
        raise PolicyFileError(f"{path}: 'meta' has no action_table_digest (text)")
    layers = meta.get("layers")
    if not isinstance(layers, int) or isinstance(layers, bool) or layers < 1:
        raise PolicyFileError(f"{path}: 'meta' layers must be a whole number, 1 or more")
    if meta.get("activation") not in ACTIVATIONS:
        raise PolicyFileError(
            f"{path}: 'meta' activation {meta.get('activation')!r} is not one of "
            f"{', '.join(ACTIVATIONS)}"
        )
    return meta


def _array(path: Path, arrays: dict[str, Any], name: str, dims: int) -> NDArray[np.float64]:
    value = arrays.get(name)
    if value is None:
        raise PolicyFileError(f"{path}: array {name!r} is missing")
    if value.ndim != dims or value.dtype.kind not in "fiu" or 0 in value.shape:
        raise PolicyFileError(
            f"{path}: array {name!r} must be {dims}-dimensional numbers, not "
            f"{value.dtype} of shape {value.shape}"
        )
    result: NDArray[np.float64] = np.asarray(value, dtype=np.float64)
    if not np.isfinite(result).all():
        raise PolicyFileError(f"{path}: array {name!r} holds a NaN or an infinity")
    return result


def _normalise(
    path: Path, arrays: dict[str, Any], meta: dict[str, Any], inputs: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], float] | None:
    if "obs_mean" not in arrays and "obs_var" not in arrays:
        return None
    mean = _array(path, arrays, "obs_mean", 1)
    var = _array(path, arrays, "obs_var", 1)
    if mean.shape[0] != inputs or var.shape[0] != inputs:
        raise PolicyFileError(
            f"{path}: obs_mean and obs_var must have {inputs} numbers (the first layer's "
            f"inputs), not {mean.shape[0]} and {var.shape[0]}"
        )
    clip = meta.get("obs_clip", math.inf)
    epsilon = meta.get("obs_epsilon", 0.0)
    for key, value in (("obs_clip", clip), ("obs_epsilon", epsilon)):
        if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
            raise PolicyFileError(f"{path}: 'meta' {key} must be a number, 0 or more")
    if (var + epsilon <= 0).any():
        raise PolicyFileError(f"{path}: obs_var + obs_epsilon must be above 0 everywhere")
    return mean, 1.0 / np.sqrt(var + epsilon), float(clip)


_CACHE: dict[Path, tuple[tuple[int, int], MlpPolicy]] = {}


def cached_policy(path: Path) -> MlpPolicy:
    """:func:`load_policy`, read again only when the file changes (a tournament makes a
    player for every game)."""
    resolved = path.resolve()
    try:
        st = os.stat(resolved)
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        return load_policy(path)  # says why in one line
    entry = _CACHE.get(resolved)
    if entry is None or entry[0] != stamp:
        entry = _CACHE[resolved] = (stamp, load_policy(path))
    return entry[1]
