"""Learn which action card the search plays, as a rule file its rollouts can play.

    python docs/examples/card_policy.py extract DATA --games train.db [--games held.db ...]
    python docs/examples/card_policy.py fit DATA/train.npz --holdout DATA/held.npz \\
        --out learned.toml
    deathangel tournament -e mcts -e mcts:rollout=learned.toml -p 1 -n 300 -s ... --db ...

A search's rollouts play the rules. Where the search overrules the rules' Choose Actions card
(docs/strength.md, "Tried: the search's card preferences as rules") its rollouts still play
the rules' card for the seat's later rounds: the search imagines a worse player than itself.
This script learns, from the search's own games, where it chooses otherwise, and writes that
as a rule file that extends the default rules, so a search can roll out with it
(``mcts:rollout=FILE``). It learns the search's *choices* over many games, not its values at
a few (the values of two cards differ by about their own noise; a fit to them learned noise).

``extract`` plays each stored game of a positions file of ``deathangel value play`` (its games
with their decisions; the search's own, on the fitting or judging seeds) again from its
decisions, and at every Choose Actions decision with more than one card reads, for each card,
the default rules' score and the values of the expressions in ``TERMS``, all from the deciding
seat's observation through the rules' own compiler, and the card the search played. It writes
``DATA/NAME.npz`` (arrays, never a pickle) per positions file.

``fit`` fits a conditional logit: the chance of each card is a softmax over the decision's
cards of ``a * rules score + sum(b_i * term_i)``. The terms' weights are shrunk toward zero
(an L2 penalty, its strength chosen by 5-fold cross-validation over whole games of the
training data only), so with little evidence the file plays as the rules do. The rule file
holds each term as a rule scoring ``b_i / a * term`` added to the default rules' own (the
same choices: a positive scale does not change which card is best; the suite checks that the
file picks what the model picks). Printed: the held-out log-loss of the rules alone (their
scale fitted) and of the file, how often each picks the search's card on the held-out games,
and the difference with a 95% interval (bootstrap over games).
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from deathangel.analysis.positions import read_played
from deathangel.engine.decisions import Option
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.errors import DeathAngelError
from deathangel.players.rules.features import Situation
from deathangel.players.rules.file import RawRule, RuleFile, Where, read_rule_file, resolve
from deathangel.players.rules.player import RuleSet

KINDS = ("support", "move_activate")
"""Card kinds crossed with the situation (the Attack cards are the baseline)."""


def card_names() -> list[str]:
    """Every base-game action card's name, sorted (the terms' order is fixed by it)."""
    db = default_database()
    return sorted({card.name for team in db.teams for card in team.actions})


def terms() -> list[str]:
    """The expressions the fit may weigh, each read for every card option of a decision."""
    out = [
        "card_kills",
        "card_saves",
        "card_blips",
        "best_token_gain * (card_kind == 'support')",
        "team_flip_gain * (card_kind == 'move_activate')",
        "team_doors * (card_kind == 'move_activate')",
        "team_activatable * (card_kind == 'move_activate')",
        "team_front * (card_kind == 'attack')",
        "team_in_range * (card_kind == 'attack')",
    ]
    for kind in KINDS:
        k = f"(card_kind == '{kind}')"
        out += [
            f"{k} * (round == 1)",
            f"{k} * final",
            f"{k} * total_death",
            f"{k} * next_spawns",
            f"{k} * marines",
            f"{k} * team_marines",
            f"{k} * team_death",
            f"{k} * blips_min",
        ]
    out += ["(card_kind == 'support') * chosen_support"]
    out += ["(card_kind == 'move_activate') * chosen_move"]
    out += ["(card_kind == 'attack') * chosen_attack"]
    for name in card_names():
        q = f"(card == {name!r})"
        out += [q, f"{q} * (round == 1)", f"{q} * final"]
    return out


def scorer(text: str, lets: Any) -> Any:
    """The rules' compiled function of one expression (a one-rule rule set), with the
    default rules' names (``panel_value``...) in reach."""
    here = Path(__file__)  # named in an error message only: the terms are this file's
    where = Where(here, None, "[[choose_action]] rule 1, 'score'")
    rule = RawRule(None, text, "", where, where)
    ruleset = RuleSet(RuleFile(here, "first", lets, {"choose_action": (rule,)}))
    return ruleset.scorers["choose_action"]


def extract(args: argparse.Namespace) -> None:
    default = read_rule_file(resolve("default"))
    rules = RuleSet(default).scorers["choose_action"]
    texts = terms()
    functions = [scorer(t, default.lets) for t in texts]
    out = Path(args.data)
    out.mkdir(parents=True, exist_ok=True)
    for source in args.games:
        config, played = read_played(Path(source))
        seed = config.seed
        rows: list[list[float]] = []
        base: list[float] = []
        chosen: list[int] = []
        decision_of: list[int] = []
        game_of: list[int] = []
        decisions = 0
        for k, game_pos in enumerate(played):
            game = Game(GameConfig(game_pos.seats, seed=seed + game_pos.index), checkpoints=False)
            for code in game_pos.decisions or ():
                decision = game.decision
                assert decision is not None, f"game {game_pos.index} ended early"
                option = Option.from_code(code)
                if decision.kind == "choose_action" and len(decision.options) > 1:
                    view = game.observation(decision.seat)
                    situation = Situation(view, decision)
                    options = decision.options
                    base += rules(situation, options)
                    columns = [f(situation, options) for f in functions]
                    rows += [list(r) for r in zip(*columns, strict=True)]
                    chosen.append(options.index(option))
                    decision_of += [decisions] * len(options)
                    game_of.append(k)
                    decisions += 1
                game.apply(option)
            if game.decision is not None or (game.outcome == "victory") != game_pos.won:
                raise SystemExit(f"{source}: game {game_pos.index} does not replay to its end")
        name = Path(source).name.split(".")[0]
        np.savez_compressed(
            out / f"{name}.npz",
            x=np.array(rows, dtype=np.float64),
            rules=np.array(base, dtype=np.float64),
            decision=np.array(decision_of, dtype=np.int64),
            chosen=np.array(chosen, dtype=np.int64),
            game=np.array(game_of, dtype=np.int64),
            terms=np.array(texts),
        )
        print(f"{source}: {len(played)} games, {decisions} card decisions -> {out / name}.npz")


class Data:
    """One file's decisions, padded to the most cards a decision offers."""

    def __init__(self, path: Path) -> None:
        with np.load(path) as f:
            self.terms = [str(t) for t in f["terms"]]
            x, rules, decision = f["x"], f["rules"], f["decision"]
            self.chosen, self.game = f["chosen"], f["game"]
        n = len(self.chosen)
        width = int(np.bincount(decision).max())
        slot = np.arange(len(decision)) - np.searchsorted(decision, decision)
        self.mask = np.zeros((n, width), dtype=bool)
        self.mask[decision, slot] = True
        self.x = np.zeros((n, width, 1 + x.shape[1]))
        self.x[decision, slot, 0] = rules
        self.x[decision, slot, 1:] = x


def loss(theta: Any, x: Any, mask: Any, chosen: Any, penalty: float) -> float:
    """Mean negative log-likelihood of the search's cards, plus the L2 penalty on the terms
    (not on the rules' scale)."""
    u = np.where(mask, x @ theta, -np.inf)
    u -= u.max(axis=1, keepdims=True)
    log_total = np.log(np.exp(u).sum(axis=1))
    nll = -float(np.mean(u[np.arange(len(chosen)), chosen] - log_total))
    reg = theta[1:]
    return nll + 0.5 * penalty * float(reg @ reg)


def fit_one(x: Any, mask: Any, chosen: Any, penalty: float) -> Any:
    """The penalised maximum-likelihood weights, by Newton's method (the loss is convex;
    numpy alone, no optimiser library)."""
    n, _, width = x.shape
    theta = np.zeros(width)
    theta[0] = 1.0
    ridge = np.full(width, penalty)
    ridge[0] = 0.0
    xm = np.where(mask[..., None], x, 0.0)
    for _ in range(50):
        u = np.where(mask, x @ theta, -np.inf)
        u -= u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("nk,nkf->nf", p, xm)
        grad = (mean - xm[np.arange(n), chosen]).sum(axis=0) / n + ridge * theta
        flat = xm.reshape(-1, width)
        hess = (flat * p.reshape(-1, 1)).T @ flat - mean.T @ mean
        hess = hess / n + np.diag(ridge) + 1e-9 * np.eye(width)
        step = np.linalg.solve(hess, grad)
        before = loss(theta, x, mask, chosen, penalty)
        scale = 1.0
        while loss(theta - scale * step, x, mask, chosen, penalty) > before and scale > 1e-4:
            scale /= 2
        theta = theta - scale * step
        if float(np.abs(scale * step).max()) < 1e-8:
            break
    return theta


def picks(theta: Any, x: Any, mask: Any) -> Any:
    return np.where(mask, x @ theta, -np.inf).argmax(axis=1)


def fit(args: argparse.Namespace) -> None:
    train = Data(Path(args.train))
    held = Data(Path(args.holdout))
    scale = np.ones(train.x.shape[2])
    flat = train.x[train.mask]
    scale[1:] = np.where(flat[:, 1:].std(axis=0) > 0, flat[:, 1:].std(axis=0), 1.0)
    xs = train.x / scale
    folds = train.game % 5
    best: tuple[float, float] | None = None
    for penalty in (1e-4, 1e-3, 1e-2, 1e-1, 1.0):
        nll = 0.0
        for f in range(5):
            fit_rows, out_rows = folds != f, folds == f
            theta = fit_one(xs[fit_rows], train.mask[fit_rows], train.chosen[fit_rows], penalty)
            held_out = loss(theta, xs[out_rows], train.mask[out_rows], train.chosen[out_rows], 0)
            nll += held_out * int(out_rows.sum())
        nll /= len(train.chosen)
        print(f"  penalty {penalty:g}: cross-validated log-loss {nll:.4f}")
        if best is None or nll < best[1]:
            best = (penalty, nll)
    assert best is not None
    theta = fit_one(xs, train.mask, train.chosen, best[0]) / scale
    print(f"chosen penalty {best[0]:g}; rules' scale {theta[0]:.3f}")
    # The rules alone, with only their scale fitted: the baseline of the log-loss.
    rules_only = np.zeros_like(theta)
    rules_only[0] = fit_one(train.x[..., :1], train.mask, train.chosen, 0.0)[0]
    print(
        f"held-out log-loss: the rules (scale {rules_only[0]:.3f}) "
        f"{loss(rules_only, held.x, held.mask, held.chosen, 0):.4f}, the file "
        f"{loss(theta, held.x, held.mask, held.chosen, 0):.4f}"
    )
    agree_rules = picks(rules_only, held.x, held.mask) == held.chosen
    agree_file = picks(theta, held.x, held.mask) == held.chosen
    diff = agree_file.astype(float) - agree_rules.astype(float)
    games = np.unique(held.game)
    per_game = np.array([diff[held.game == g].sum() for g in games])
    counts = np.array([(held.game == g).sum() for g in games])
    rng = np.random.default_rng(0)
    boot = []
    for _ in range(2000):
        k = rng.integers(0, len(games), len(games))
        boot.append(per_game[k].sum() / counts[k].sum())
    lo, hi = np.percentile(boot, [2.5, 97.5])
    n = len(held.chosen)
    print(
        f"held-out: {n} card decisions of {len(games)} games; the search's card picked by the "
        f"rules {agree_rules.mean():.4f}, by the file {agree_file.mean():.4f}; difference "
        f"{diff.mean():+.4f} (95% {lo:+.4f} to {hi:+.4f})"
    )
    order = np.argsort(-np.abs(theta[1:] * scale[1:]))
    for i in order[:15]:
        print(f"  {theta[1 + i] / theta[0]:+.4f}  {train.terms[i]}")
    if args.out:
        write(Path(args.out), train.terms, theta, best[0])
        print(f"written {args.out}")


def write(path: Path, texts: list[str], theta: Any, penalty: float) -> None:
    lines = [
        "# Written by docs/examples/card_policy.py: the default rules, and a correction of",
        "# their Choose Actions card learned from the search's own choices (a conditional",
        f"# logit, L2 penalty {penalty:g} chosen by cross-validation).",
        "format = 1",
        'extends = "default"',
        'append = ["choose_action"]',
    ]
    for text, weight in zip(texts, theta[1:] / theta[0], strict=True):
        if weight == 0:
            continue
        lines += ["", "[[choose_action]]", f'score = "{weight:.6g} * ({text})"']
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract", help="read the card decisions of stored games")
    p.add_argument("data", help="the folder the arrays go in (NAME.npz per games file)")
    p.add_argument(
        "--games",
        action="append",
        required=True,
        help="a positions file (value play) or its archive (value export); repeat for more",
    )
    p = sub.add_parser("fit", help="fit the correction, judge it, write the rule file")
    p.add_argument("train", help="the training games' arrays (extract's NAME.npz)")
    p.add_argument("--holdout", required=True, help="the judging games' arrays")
    p.add_argument("--out", help="the rule file (.toml) to write")
    args = parser.parse_args()
    try:
        {"extract": extract, "fit": fit}[args.command](args)
    except (DeathAngelError, OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        # A missing or corrupt input file: one line, no traceback (nothing is written then).
        raise SystemExit(f"card_policy.py {args.command}: {exc}") from None


if __name__ == "__main__":
    main()
