"""Teach a policy network to play like a bot (behaviour cloning), and write a policy file.

A learning researcher's warm start, and a way to turn a slow bot into a fast one: play a
*teacher* strategy (``rules`` by default; any spec ``deathangel strategies list`` shows, such
as ``mcts``) at every seat of games on training seeds, record at each of its decisions with
more than one legal option what the environments would hand an agent there (the seat's
encoded observation and the legal-action mask) and the teacher's choice as an action index,
fit a multi-layer perceptron to those choices (a cross-entropy over the legal actions only,
with torch), and write the policy file that ``deathangel tournament --with policy -e
policy:model=FILE.npz`` seats beside the bots (docs/learning.md, "A trained agent at a seat").

    pip install torch==2.13.0        # a CPU build
    python docs/examples/imitate.py collect rules-data --teacher rules --games 2000
    python docs/examples/imitate.py fit rules-data --save rules-bc.npz
    deathangel tournament --with policy -e rules -e policy:model=rules-bc.npz -p 1 \\
        -n 1000 -s 800000 --db bc.db

``collect`` writes the games in shards of ``--shard`` games (``DATA/shard-00000.npz``...,
numpy arrays, compressed, never a pickle), each written whole under a temporary name and
then renamed, so a run stopped at any point loses at most the shards being played: the
same command again plays only the shards that are missing. ``DATA/data.json`` holds what
the data is (teacher, players, seed, bot key, the action table's digest and the encoding's
version), and a second run with other settings is refused rather than mixed in.

The game seeds are drawn from ``TRAIN_SEEDS`` (10**9 and up) by ``--seed``, so the
held-out ranges the docs measure on (800000..800999 for learning agents) are never played.
The teacher sees what its seat may see and nothing else, as in any game; so does the network.

``collect --student FILE.npz`` is DAgger: the student plays, the teacher labels what it
would have done at each of the student's decisions. ``fit`` takes several folders at once.

``extract DATA --games FILE`` writes the same shards from games already played: a positions
file of ``deathangel value play`` (a search's games, stored with their decisions for a value
fit) or its archive (``deathangel value export``). Each game is played again from its
decisions (the engine alone, milliseconds a game) and the strategy's choices are recorded as
``collect`` records them, so the hours a search's games cost buy a value fit and an imitation
both. Their seeds are the file's (the fitting range, 300000..399999), not ``TRAIN_SEEDS``.

``fit`` holds out the last tenth of the games (whole games, not decisions), prints each
epoch's loss and how often the network picks the teacher's action on the held-out games,
keeps the epoch with the lowest held-out loss, and checks that the written file picks the
same action as the network at every held-out decision.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from deathangel.analysis.positions import GamePositions, read_played
from deathangel.analysis.simulate import play_game, spec_bots
from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.observation import Observation
from deathangel.learning.encoding import ENCODING_VERSION, Encoder, encoder
from deathangel.learning.policy import FORMAT, FORMAT_VERSION, PolicyPlayer, load_policy
from deathangel.players.seeds import check_bot_key, new_bot_key
from deathangel.plugins.strategies import parse_spec, strategies

TRAIN_SEEDS = (10**9, 2**62)
"""The game seeds teacher games are drawn from (half-open), as the PPO example trains on."""
HOLD_OUT = 0.1
"""The share of games (the last ones of each folder) ``fit`` keeps out of training."""
CHUNK = 65536
"""Rows normalised at a time (a slice in float64 is about 0.8 GB)."""
SAME = ("players", "action_table_digest", "encoding_version")
"""What every folder ``fit`` trains on at once must share."""


class Recorder:
    """The teacher at a seat, noting what an agent would have been shown and what it chose.

    With a ``student`` (a player), the student's choice is played and the teacher is only
    asked what it would have done there (DAgger: the teacher labels the positions the
    student's own play leads to, which the teacher's games never show it). Every other
    attribute (``uses_forward_model``, ``start_game``...) is the teacher's, so the game
    treats it as the teacher."""

    def __init__(self, teacher: Any, enc: Encoder, student: Any = None) -> None:
        self.teacher = teacher
        self.enc = enc
        self.student = student
        self.vectors: list[np.ndarray[Any, Any]] = []
        self.legal: list[list[int]] = []
        self.actions: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.teacher, name)

    def choose(self, observation: Observation | None, decision: Decision) -> Option:
        assert observation is not None, "the teacher observes (Recorder asks for it)"
        option: Option = self.teacher.choose(observation, decision)
        if len(decision.options) > 1:
            legal = self.enc.actions.legal(decision, observation.state.wounds)
            self.vectors.append(self.enc.encode(observation))
            self.legal.append(list(legal.indices))
            self.actions.append(legal.indices[decision.options.index(option)])
        if self.student is not None:
            played: Option = self.student.choose(observation, decision)
            return played
        return option


def game_seeds(seed: int, games: int) -> list[int]:
    rng = np.random.default_rng(seed)
    return [int(s) for s in rng.integers(TRAIN_SEEDS[0], TRAIN_SEEDS[1], size=games)]


def write_shard(
    path: Path,
    enc: Encoder,
    vectors: list[np.ndarray[Any, Any]],
    masks: list[np.ndarray[Any, Any]],
    actions: list[int],
    games: list[int],
    outcomes: list[bool],
) -> None:
    """One shard's arrays, written whole under another name and then renamed (a run stopped
    while writing leaves no shard that looks finished)."""
    partial = path.with_name(path.name + ".partial.npz")
    np.savez_compressed(
        partial,
        vectors=np.asarray(vectors, dtype=np.float32).reshape(-1, enc.size),
        masks=np.asarray(masks, dtype=np.uint8).reshape(len(masks), -1),
        actions=np.asarray(actions, dtype=np.int32),
        games=np.asarray(games, dtype=np.int32),
        won=np.asarray(outcomes, dtype=bool),
    )
    os.replace(partial, path)


def play_shard(
    data: str,
    shard: int,
    seeds: list[int],
    teacher: str,
    players: int,
    key: str,
    student: str | None = None,
) -> tuple[int, int, float]:
    """Play one shard's games and write it; returns (shard, decisions, CPU seconds)."""
    started = time.process_time()
    spec = parse_spec(teacher)
    found = strategies()
    enc = encoder(Game(GameConfig(players, seed=0)).table)
    pupil = PolicyPlayer(load_policy(student), name=student) if student else None
    vectors: list[np.ndarray[Any, Any]] = []
    masks: list[np.ndarray[Any, Any]] = []
    actions: list[int] = []
    games: list[int] = []
    outcomes: list[bool] = []
    for k, game_seed in enumerate(seeds):
        bots = spec_bots([spec] * players, game_seed, found, key)
        seats = [Recorder(bot, enc, pupil) for bot in bots]
        result = play_game(GameConfig(players, seed=game_seed), seats)
        outcomes.append(result.won)
        for seat in seats:
            for vector, legal, action in zip(seat.vectors, seat.legal, seat.actions, strict=True):
                mask = np.zeros(enc.actions.size, dtype=bool)
                mask[legal] = True
                vectors.append(vector)
                masks.append(np.packbits(mask))
                actions.append(action)
                games.append(k)
    write_shard(
        Path(data) / f"shard-{shard:05d}.npz", enc, vectors, masks, actions, games, outcomes
    )
    return shard, len(actions), time.process_time() - started


def collect(args: argparse.Namespace) -> None:
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    enc = encoder(Game(GameConfig(args.players, seed=0)).table)
    parse_spec(args.teacher).make(0, found=strategies())  # an unknown teacher fails now
    student = str(Path(args.student).resolve()) if args.student else None
    if student is not None:
        PolicyPlayer(load_policy(student)).check_table(Game(GameConfig(args.players)).table)
    about = {
        "teacher": args.teacher,
        "student": student,
        "student_sha256": hashlib.sha256(Path(student).read_bytes()).hexdigest()
        if student
        else None,
        "players": args.players,
        "seed": args.seed,
        "shard": args.shard,
        "action_table_digest": enc.actions.digest(),
        "encoding_version": ENCODING_VERSION,
    }
    info_path = data / "data.json"
    if info_path.exists():
        stored: dict[str, Any] = {"student": None, "student_sha256": None}  # none before --student
        stored.update(json.loads(info_path.read_text(encoding="utf-8")))
        key = stored.pop("bot_key")
        if args.bot_key and args.bot_key != key:
            raise SystemExit(f"{info_path}: collected with bot key {key}, not {args.bot_key}")
        if stored != about:
            raise SystemExit(
                f"{info_path}: this data was collected with other settings ({stored}); "
                "use another folder"
            )
    else:
        key = check_bot_key(args.bot_key) if args.bot_key else new_bot_key()
        info_path.write_text(json.dumps({**about, "bot_key": key}, indent=1), encoding="utf-8")
    seeds = game_seeds(args.seed, args.games)
    shards = range(math.ceil(args.games / args.shard))
    todo = [s for s in shards if not (data / f"shard-{s:05d}.npz").exists()]
    playing = f"{args.teacher}" + (f" (labelling {args.student}'s games)" if student else "")
    print(
        f"{playing} at {args.players} seat(s): {len(shards) - len(todo)} of {len(shards)} "
        f"shards of {args.shard} games already in {data}; playing {len(todo)} "
        f"on {args.workers} worker(s), bot key {key}",
        flush=True,
    )
    started = time.perf_counter()
    decisions = 0
    cpu = 0.0
    with ProcessPoolExecutor(args.workers) as pool:
        jobs = [
            pool.submit(
                play_shard,
                str(data),
                s,
                seeds[s * args.shard : (s + 1) * args.shard],
                args.teacher,
                args.players,
                key,
                student,
            )
            for s in todo
        ]
        for done, job in enumerate(as_completed(jobs), start=1):
            shard, n, seconds = job.result()
            decisions += n
            cpu += seconds
            wall = time.perf_counter() - started
            print(
                f"  shard {shard:5d} written ({done}/{len(todo)}): {n} decisions, "
                f"{seconds:.0f} s of CPU; {decisions} decisions in {wall / 60:.1f} min",
                flush=True,
            )
    print(f"done: {decisions} decisions recorded, {cpu / 60:.1f} min of CPU")


def replay_shard(
    data: str, shard: int, seed: int, played: list[GamePositions]
) -> tuple[int, int, float]:
    """Record one shard's stored games, played again from their decisions, as ``play_shard``
    records a teacher's; returns (shard, decisions, CPU seconds)."""
    started = time.process_time()
    enc: Encoder | None = None
    vectors: list[np.ndarray[Any, Any]] = []
    masks: list[np.ndarray[Any, Any]] = []
    actions: list[int] = []
    games: list[int] = []
    outcomes: list[bool] = []
    for k, stored in enumerate(played):
        game = Game(GameConfig(stored.seats, seed=seed + stored.index), checkpoints=False)
        enc = enc or encoder(game.table)
        for code in stored.decisions or ():
            decision = game.decision
            assert decision is not None, f"game {stored.index} ended before its decisions"
            option = Option.from_code(code)
            if len(decision.options) > 1:
                observation = game.observation(decision.seat)
                legal = enc.actions.legal(decision, observation.state.wounds)
                mask = np.zeros(enc.actions.size, dtype=bool)
                mask[list(legal.indices)] = True
                vectors.append(enc.encode(observation))
                masks.append(np.packbits(mask))
                actions.append(legal.indices[decision.options.index(option)])
                games.append(k)
            game.apply(option)
        if game.decision is not None or (game.outcome == "victory") != stored.won:
            raise SystemExit(f"game {stored.index}'s decisions do not replay to its end")
        outcomes.append(stored.won)
    assert enc is not None
    write_shard(
        Path(data) / f"shard-{shard:05d}.npz", enc, vectors, masks, actions, games, outcomes
    )
    return shard, len(actions), time.process_time() - started


def extract(args: argparse.Namespace) -> None:
    data = Path(args.data)
    source = Path(args.games).resolve()
    stored, played = read_played(source)
    config = stored.to_dict()
    if not played or played[0].decisions is None:
        raise SystemExit(f"{source}: no games with their decisions stored")
    if len(config["players"]) != 1:
        raise SystemExit(f"{source}: games of several player counts; fit takes one")
    players = config["players"][0]
    enc = encoder(Game(GameConfig(players, seed=0)).table)
    about = {
        "teacher": config["strategy"],
        "student": None,
        "student_sha256": None,
        "players": players,
        "seed": config["seed"],
        "shard": args.shard,
        "action_table_digest": enc.actions.digest(),
        "encoding_version": ENCODING_VERSION,
        "games_from": str(source),
        "bot_key": config["bot_key"],
    }
    data.mkdir(parents=True, exist_ok=True)
    info_path = data / "data.json"
    if info_path.exists():
        stored = json.loads(info_path.read_text(encoding="utf-8"))
        if stored != about:
            raise SystemExit(
                f"{info_path}: this data came from other games or settings ({stored}); "
                "use another folder"
            )
    else:
        info_path.write_text(json.dumps(about, indent=1), encoding="utf-8")
    # Whole shards only: the games of a shard not yet full are recorded once it fills (a
    # run that goes on storing games extends the data as the same command is run again).
    full = len(played) // args.shard
    todo = [s for s in range(full) if not (data / f"shard-{s:05d}.npz").exists()]
    decisions = 0
    for s in todo:
        shard, n, seconds = replay_shard(
            str(data), s, config["seed"], played[s * args.shard : (s + 1) * args.shard]
        )
        decisions += n
        print(f"  shard {shard:5d} written: {n} decisions, {seconds:.1f} s of CPU", flush=True)
    print(
        f"done: {len(todo)} shard(s) of {args.shard} games written now, {full} in {data} "
        f"({len(played) - full * args.shard} game(s) wait for a full shard); "
        f"{decisions} decisions recorded now"
    )


def load(data: Path) -> dict[str, Any]:
    """Every shard, in shard order, with each decision's game numbered across shards."""
    info = json.loads((data / "data.json").read_text(encoding="utf-8"))
    files = sorted(data.glob("shard-[0-9][0-9][0-9][0-9][0-9].npz"))
    if not files:
        raise SystemExit(f"{data}: no shards; run collect first")
    parts: dict[str, list[Any]] = {"vectors": [], "masks": [], "actions": [], "games": []}
    won = 0
    offset = 0
    for path in files:
        with np.load(path, allow_pickle=False) as shard:
            parts["vectors"].append(shard["vectors"])
            parts["masks"].append(shard["masks"])
            parts["actions"].append(shard["actions"])
            parts["games"].append(shard["games"] + offset)
            offset += len(shard["won"])
            won += int(shard["won"].sum())
    out: dict[str, Any] = {name: np.concatenate(arrays) for name, arrays in parts.items()}
    size = encoder(Game(GameConfig(info["players"], seed=0)).table).actions.size
    out["masks"] = np.unpackbits(out["masks"], axis=1, count=size).astype(bool)
    out["info"] = {"student": None, **info}  # data collected before --student had none
    out["played"] = offset
    out["won"] = won
    return out


def moments(x: np.ndarray[Any, Any], rows: np.ndarray[Any, Any]) -> tuple[Any, Any]:
    """The mean and variance of ``x``'s ``rows``, column by column, in slices (float64)."""
    total = np.zeros(x.shape[1])
    squares = np.zeros(x.shape[1])
    for i in range(0, len(rows), CHUNK):
        part = x[rows[i : i + CHUNK]].astype(np.float64)
        total += part.sum(axis=0)
        squares += (part * part).sum(axis=0)
    mean = total / len(rows)
    return mean, np.maximum(squares / len(rows) - mean * mean, 0.0)


def torch_module() -> Any:
    """torch, which only ``fit`` needs (``collect`` runs without it)."""
    try:
        import torch
    except ImportError as exc:  # one line saying what to install, not a traceback
        raise SystemExit(
            f"fit needs torch ({exc.name} is missing): pip install a CPU build of torch"
        ) from None
    return torch


def network(torch: Any, inputs: int, hidden: list[int], outputs: int) -> Any:
    """Linear layers with ReLU between them: the shape a policy file holds."""
    sizes = [inputs, *hidden, outputs]
    layers: list[Any] = []
    for a, b in itertools.pairwise(sizes):
        layers += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    return torch.nn.Sequential(*layers[:-1])


def start_from(path: str, info: dict[str, Any]) -> dict[str, Any]:
    """The arrays of a policy file written by ``fit`` (read as data), to go on training from:
    the same cards, encoding and normalisation clip."""
    load_policy(path)  # a broken file is refused in one line, naming it
    with np.load(path, allow_pickle=False) as f:
        arrays = {name: f[name] for name in f.files}
    meta = json.loads(str(arrays.pop("meta")))
    if meta["action_table_digest"] != info["action_table_digest"]:
        raise SystemExit(f"{path}: trained on other cards than this data")
    if meta.get("activation") != "relu" or meta.get("obs_clip") != 10.0:
        raise SystemExit(f"{path}: not a file fit wrote (relu, observations clipped at 10)")
    return arrays


def masked_logits(net: Any, x: Any, mask: Any) -> Any:
    """The network's logits with every illegal action's pushed out of reach."""
    return net(x).masked_fill(~mask, -1e9)


def fit(args: argparse.Namespace) -> None:
    torch = torch_module()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    folders = [load(Path(d)) for d in args.data]
    info = folders[0]["info"]
    for folder, path in zip(folders, args.data, strict=True):
        if any(folder["info"][k] != info[k] for k in SAME):
            raise SystemExit(f"{path}: its {', '.join(SAME)} differ from {args.data[0]}'s")
    train_parts = []
    for folder, path in zip(folders, args.data, strict=True):
        # The last tenth of each folder's games are held out, whole.
        cut = int(folder["played"] * (1 - HOLD_OUT))
        train_parts.append(folder["games"] < cut)
        about = folder["info"]
        by = f"{about['teacher']}" + (f" on {about['student']}'s games" if about["student"] else "")
        print(
            f"{path}: {by}, {about['players']} seat(s), {folder['played']} games "
            f"({folder['won']} won), {len(folder['games'])} decisions; training on games "
            f"0..{cut - 1}, judging on the other {folder['played'] - cut}",
            flush=True,
        )
    train = np.concatenate(train_parts)
    held = ~train
    data = {k: np.concatenate([f.pop(k) for f in folders]) for k in ("vectors", "masks", "actions")}
    data["played"] = sum(f["played"] for f in folders)
    print(f"{int(train.sum())} decisions to train on, {int(held.sum())} to judge by", flush=True)
    x = data["vectors"]
    start = start_from(args.init, info) if args.init else None
    train_rows, held_rows = np.flatnonzero(train), np.flatnonzero(held)
    if start is not None:  # the network goes on from the file, its normalisation kept
        mean, var = start["obs_mean"], start["obs_var"]
    else:
        mean, var = moments(x, train_rows)
    clip, eps = 10.0, 1e-8
    scale = 1.0 / np.sqrt(var + eps)

    def normalised(rows: np.ndarray[Any, Any]) -> Any:
        # In slices: the whole at once in float64 would need twice the data's memory again.
        out = np.empty((len(rows), x.shape[1]), dtype=np.float32)
        for i in range(0, len(rows), CHUNK):
            part = x[rows[i : i + CHUNK]]
            out[i : i + CHUNK] = np.clip((part - mean) * scale, -clip, clip)
        return torch.from_numpy(out)

    xt, mt = normalised(train_rows), torch.as_tensor(data["masks"][train])
    at = torch.as_tensor(data["actions"][train], dtype=torch.long)
    xh, mh = normalised(held_rows), torch.as_tensor(data["masks"][held])
    ah = torch.as_tensor(data["actions"][held], dtype=torch.long)
    net = network(torch, x.shape[1], args.hidden, data["masks"].shape[1])
    if start is not None:
        linear = [layer for layer in net if hasattr(layer, "weight")]
        for i, layer in enumerate(linear):
            if tuple(layer.weight.shape) != start[f"weight{i}"].shape:
                raise SystemExit(f"{args.init}: its layers are not --hidden {args.hidden}")
            with torch.no_grad():
                layer.weight.copy_(torch.as_tensor(start[f"weight{i}"]))
                layer.bias.copy_(torch.as_tensor(start[f"bias{i}"]))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    best: tuple[float, int, dict[str, Any]] | None = None
    for epoch in range(1, args.epochs + 1):
        net.train()
        order = torch.randperm(len(at))
        total = 0.0
        for i in range(0, len(at), args.batch):
            idx = order[i : i + args.batch]
            loss = torch.nn.functional.cross_entropy(masked_logits(net, xt[idx], mt[idx]), at[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        net.eval()
        with torch.no_grad():
            logits = masked_logits(net, xh, mh)
            held_loss = float(torch.nn.functional.cross_entropy(logits, ah))
            agree = float((logits.argmax(dim=1) == ah).float().mean())
        print(
            f"  epoch {epoch:3d}: training loss {total / len(at):.4f}, held-out loss "
            f"{held_loss:.4f}, the teacher's action {100 * agree:.1f}% of held-out decisions",
            flush=True,
        )
        if best is None or held_loss < best[0]:
            best = (held_loss, epoch, {k: v.clone() for k, v in net.state_dict().items()})
    assert best is not None
    net.load_state_dict(best[2])
    print(f"kept epoch {best[1]} (held-out loss {best[0]:.4f})")
    save(args.save, net, mean, var, clip, eps, [f["info"] for f in folders], data, best)
    check(torch, args.save, net, mh, x[held])


def save(
    path: str,
    net: Any,
    mean: np.ndarray[Any, Any],
    var: np.ndarray[Any, Any],
    clip: float,
    eps: float,
    infos: list[dict[str, Any]],
    data: dict[str, Any],
    best: tuple[float, int, Any],
) -> None:
    arrays: dict[str, Any] = {}
    linear = [layer for layer in net if hasattr(layer, "weight")]
    for i, layer in enumerate(linear):
        arrays[f"weight{i}"] = layer.weight.detach().double().numpy()
        arrays[f"bias{i}"] = layer.bias.detach().double().numpy()
    arrays["obs_mean"] = mean
    arrays["obs_var"] = var
    meta = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "action_table_digest": infos[0]["action_table_digest"],
        "encoding_version": infos[0]["encoding_version"],
        "layers": len(linear),
        "activation": "relu",
        "obs_clip": clip,
        "obs_epsilon": eps,
        "trained_with": "behaviour cloning, docs/examples/imitate.py",
        "teacher": sorted({f["teacher"] for f in infos}),
        "data": [f"{f['teacher']} on {f['student'] or 'its own'} games" for f in infos],
        "games": data["played"],
        "decisions": len(data["actions"]),
        "held_out_loss": best[0],
    }
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def check(torch: Any, path: str, net: Any, mh: Any, raw: np.ndarray[Any, Any]) -> None:
    """The file must pick what the network picks at every held-out decision (computed in
    double precision both ways, so only a true tie could part them)."""
    saved = load_policy(path)
    net.double()
    with torch.no_grad():
        ours = masked_logits(net, torch.as_tensor(saved_input(saved, raw)), mh).argmax(dim=1)
    differ = sum(
        saved(raw[i], mh[i].numpy().astype(np.int8)) != int(ours[i]) for i in range(len(raw))
    )
    if differ:
        raise SystemExit(f"{path}: the file picks another action than the network {differ} time(s)")
    print(f"saved {path}: the same action as the network at all {len(raw)} held-out decisions")


def saved_input(saved: Any, raw: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    mean, scale, clip = saved.normalise
    out: np.ndarray[Any, Any] = np.clip((raw.astype(np.float64) - mean) * scale, -clip, clip)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play the teacher's games and record its choices")
    c.add_argument("data", help="the folder the shards go in")
    c.add_argument("--teacher", default="rules", help="the strategy spec to imitate")
    c.add_argument("--players", type=int, default=1)
    c.add_argument("--games", type=int, default=2000)
    c.add_argument("--shard", type=int, default=50, help="games a shard file holds")
    c.add_argument("--seed", type=int, default=0, help="draws the game seeds")
    c.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    c.add_argument("--bot-key", help="seeds the teacher (default: a new one, kept in data.json)")
    c.add_argument(
        "--student",
        help="a policy file that plays the games while the teacher only labels them (DAgger)",
    )
    e = sub.add_parser("extract", help="record the choices of games already played and stored")
    e.add_argument("data", help="the folder the shards go in")
    e.add_argument(
        "--games", required=True, help="a positions file (value play) or its archive (value export)"
    )
    e.add_argument("--shard", type=int, default=50, help="games a shard file holds")
    f = sub.add_parser("fit", help="fit the network to the recorded choices, write the file")
    f.add_argument("data", nargs="+", help="the folder(s) collect wrote")
    f.add_argument("--save", required=True, help="the policy file (.npz) to write")
    f.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    f.add_argument("--epochs", type=int, default=20)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--weight-decay", type=float, default=1e-5)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--threads", type=int, default=1)
    f.add_argument("--init", help="a policy file fit wrote, to go on from (a warm start)")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args)
    elif args.command == "extract":
        extract(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
