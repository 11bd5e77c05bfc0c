"""The ``rules`` strategy: a player whose every choice is scored by rules from a TOML file.

A rule file lists, per decision kind, rules that each add a score to the options they match
(``docs/strategies.md`` documents the format and every value a rule may read). The option with
the highest total is chosen; ties — including options no rule matched — are broken by the
file's ``fallback``: at random, or the first one in the engine's order.

Two ways to use it:

- :class:`RulesPlayer`, the strategy offered as ``rules`` (``rules:rules=mine.toml``);
- :class:`RuleSet` directly, for a search that plays rules in its rollouts:
  ``RuleSet.load(path).choose(view, decision, rng)``, where ``view`` is anything with
  ``.seat``, ``.state``, ``.table`` and ``.counts`` (an Observation, or a cheap view over the
  search's own game with :func:`deathangel.engine.observation.pile_counts`). A rule set reads
  only hidden piles' sizes, never their cards, so it is honest on either. A search's view may
  also offer ``memo``, a dict in which the rules keep what a Choose Actions phase's team
  decisions share (:data:`~deathangel.players.rules.features.PHASE_VALUES`): only a view
  whose state nothing but its own game's engine changes, made anew for each game it views,
  and whose ``counts`` are the same whichever seat it is set to (some values are shared by
  every seat's teams).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from functools import partial
from math import floor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathangel.errors import RuleFileError
from deathangel.players.base import View
from deathangel.players.rules.expr import BOOL, NUMBER, Compiler, ExprError, div
from deathangel.players.rules.features import Situation
from deathangel.players.rules.file import (
    RawRule,
    RuleFile,
    read_rule_file,
    resolve,
    shipped_names,
)
from deathangel.players.rules.vocab import VOCABULARY

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.observation import Observation

ScoreFunction = Callable[[Situation, "Sequence[Option]"], list[float]]
"""Scores every option of a decision, in their order (compiled from a rule file's rules)."""

_GLOBALS: dict[str, Any] = {
    "__builtins__": {
        "min": min,
        "max": max,
        "abs": abs,
        "len": len,
        "int": int,
        "frozenset": frozenset,
    },
    "_div": div,
    "_SIDE_INDEX": {"left": 0, "right": 1},
}


class RuleSet:
    """Compiled rules: one scoring function per decision kind."""

    def __init__(self, source: RuleFile) -> None:
        self.path = source.path
        self.fallback = source.fallback
        compiler = Compiler(VOCABULARY)
        for name, text, where in source.lets:
            if name in VOCABULARY:
                raise where.fail(f"{name!r} is already a built-in name; choose another")
            try:
                compiler.lets[name] = compiler.compile(text)
            except ExprError as exc:
                raise where.fail(exc.message, text, exc.column) from None
        self.scorers: dict[str, ScoreFunction] = {}
        self.rule_counts: dict[str, int] = {}
        for kind, rules in source.rules.items():
            # Twice: the first pass counts the pieces that read the option, the second
            # shares those mentioned more than once (the card's kind, its values).
            mentions: dict[str, int] = {}
            compiler.hoist = partial(_count, mentions, {})
            self._compile_rules(compiler, rules)
            hoisted: dict[str, str] = {}
            shared: dict[str, str] = {}
            compiler.hoist = partial(_hoist, hoisted, shared, mentions)
            body = self._compile_rules(compiler, rules)
            compiler.hoist = None
            # One function scores every option of a decision: a call per decision rather
            # than per option, and the hoisted pieces (what reads the situation but not the
            # option: the `panel` let, `location == ...`) start as `...` (not yet computed)
            # and are computed at their first use, then read (measured only together with the
            # other changes of that step: docs/performance.md, the rules policy in the search).
            lines = ["def score(c, options):", "    subject = c.subject"]
            if hoisted:
                lines.append("    " + " = ".join(hoisted.values()) + " = ...")
            lines += [
                "    out = []",
                "    for option in options:",
                "        o = subject(option)",
                "        s = 0",
            ]
            if shared:
                lines.append("        " + " = ".join(shared.values()) + " = ...")
            lines += [
                *body,
                "        out.append(s)",
                "    return out",
            ]
            # Safe to compile: every piece of this source comes from the templates of
            # rulefeatures.VOCABULARY and the operators of ruleexpr; text from the file only
            # ever enters as repr()-quoted literals.
            namespace = dict(_GLOBALS)
            exec(compile("\n".join(lines), f"<rules {kind}>", "exec"), namespace)
            self.scorers[kind] = namespace["score"]
            self.rule_counts[kind] = len(rules)
        if not any(self.rule_counts.values()):
            # Every choice would be the fallback's: an empty file or the wrong one, most
            # likely (the `random` and `first` strategies play that way on purpose).
            raise RuleFileError(
                f"{self.path}: no rules in it: write a rule as a [[KIND]] table (e.g. "
                '[[attack]]), or extends = "default"'
            )

    @staticmethod
    def _compile_rules(compiler: Compiler, rules: Sequence[RawRule]) -> list[str]:
        """The body of a kind's scoring loop: each rule's test and score, in file order."""
        body: list[str] = []
        for rule in rules:
            try:
                _, score = compiler.compile(rule.score, NUMBER)
            except ExprError as exc:
                raise rule.where_score.fail(exc.message, rule.score, exc.column) from None
            if rule.condition is None:
                body.append(f"        s += {score}")
                continue
            try:
                _, cond = compiler.compile(rule.condition, BOOL)
            except ExprError as exc:
                raise rule.where_if.fail(exc.message, rule.condition, exc.column) from None
            body.append(f"        if {cond}:")
            body.append(f"            s += {score}")
        return body

    @classmethod
    def load(cls, path: str | Path = "default") -> RuleSet:
        """The rule set of a file, or of a shipped rule set by name (``"default"``); read and
        compiled once per file version (bots are made per game, so this is cached).

        :raises RuleFileError: naming the file, the line and what was expected.
        """
        target = resolve(path)
        try:
            stat = target.stat()
        except OSError:
            names = ", ".join(shipped_names())
            raise RuleFileError(f"{path}: no such rule file (shipped rule sets: {names})") from None
        key = target.resolve()
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = _CACHE.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        ruleset = cls(read_rule_file(target))
        _CACHE[key] = (stamp, ruleset)
        return ruleset

    # -- choosing --------------------------------------------------------------------------------

    def scores(self, view: View, decision: Decision) -> list[float]:
        """Each option's total score, in the order of ``decision.options``."""
        scorer = self.scorers.get(decision.kind)
        options = decision.options
        if scorer is None:
            return [0.0] * len(options)
        situation = Situation(view, decision)
        scores = scorer(situation, options)
        if situation.phase_memo is not None:
            situation.keep_phase_values()
        return scores

    def best(self, view: View, decision: Decision) -> list[int]:
        """Indices of the options with the highest score (ties in the engine's order)."""
        options = decision.options
        if len(options) == 1:
            return [0]
        scores = self.scores(view, decision)
        top = max(scores)
        return [i for i, s in enumerate(scores) if s == top]

    def choose(self, view: View, decision: Decision, rng: random.Random | None = None) -> Option:
        """The option the rules prefer; a tie goes to ``rng`` under ``fallback = "random"``
        (to the first tied option when ``rng`` is ``None`` or under ``"first"``)."""
        # best() and scores() written out here: the rollout policy's one call a decision,
        # two frames fewer (the same choice: the first top score, or a draw among them).
        options = decision.options
        if len(options) == 1:
            return options[0]
        scorer = self.scorers.get(decision.kind)
        if scorer is None:
            scores = [0.0] * len(options)
        else:
            situation = Situation(view, decision)
            scores = scorer(situation, options)
            if situation.phase_memo is not None:  # a call only where there is a memo
                situation.keep_phase_values()
        top = max(scores)
        if top == top and scores.count(top) == 1:
            # One top score (most decisions): its option, found without a comprehension's
            # frame. (``count`` and ``index`` also match by identity, which differs from
            # ``==`` only for a NaN: ``top == top`` rules that out.)
            return options[scores.index(top)]
        best = [i for i, s in enumerate(scores) if s == top]
        if len(best) > 1 and rng is not None and self.fallback == "random":
            return options[best[floor(rng.random() * len(best))]]
        return options[best[0]]

    def explain(self, view: View, decision: Decision) -> list[tuple[Option, float]]:
        """Every option with its score, best first (for people tuning a rule file)."""
        scores = self.scores(view, decision)
        pairs = list(zip(decision.options, scores, strict=True))
        return sorted(pairs, key=lambda p: -p[1])


def _count(mentions: dict[str, int], hoisted: dict[str, str], code: str, per_option: bool) -> str:
    """The first pass: how often each piece that reads the option is mentioned, as the
    second pass will write it (the pieces that read only the situation hoisted alike)."""
    if per_option:
        mentions[code] = mentions.get(code, 0) + 1
        return code
    return _hoist(hoisted, {}, mentions, code, False)


def _hoist(
    hoisted: dict[str, str],
    shared: dict[str, str],
    mentions: dict[str, int],
    code: str,
    per_option: bool,
) -> str:
    """``code`` as a local of the scoring function, computed at its first use and then read:
    once per decision for a piece that reads only the situation (``h0``...), once per option
    for one that reads the option and is mentioned more than once (``p0``...; a piece that
    contains a shared one was counted before the sharing and is not shared itself). The same
    code gives the same local. ``...`` marks "not computed yet": no value a rule reads is
    ever ``...``. Exact: every value is computed by the same code, on the same unchanging
    situation, at most once where it was computed at least once before."""
    if per_option:
        if mentions.get(code, 0) < 2 or len(code) < 20:  # a short piece is as cheap to redo
            return code
        names, prefix = shared, "p"
    else:
        names, prefix = hoisted, "h"
    name = names.get(code)
    if name is None:
        name = names[code] = f"{prefix}{len(names)}"
    return f"({name} if {name} is not ... else ({name} := {code}))"


_CACHE: dict[Path, tuple[tuple[int, int], RuleSet]] = {}


def tie_break(seed: int, view: View, decision: Decision, ties: int) -> int:
    """Which of ``ties`` tied options to take, from the bot's seed and what it sees now,
    never from its past: the same situation always breaks the same way, so a resumed game
    need not replay the bot (``replays_on_resume = False``). A hash, not a seeded
    ``random.Random``: seeding one measured 17 µs, more than a whole decision should cost."""
    st = view.state
    parts = [
        str(seed),
        str(st.round),
        st.phase,
        decision.prompt,
        repr(decision.options),
        repr(tuple(view.counts)),
    ]
    for pos in st.formation:
        m = pos.marine
        parts.append(f"{m.name}{m.facing}{m.tokens}/{len(pos.swarms[0])}/{len(pos.swarms[1])}")
    h = zlib.crc32("|".join(parts).encode("utf-8"))
    # Fibonacci hashing spreads crc32's low bits over the whole range before the modulo.
    return ((h * 0x9E3779B1) & 0xFFFFFFFF) * ties >> 32


class RulesPlayer:
    """Scores every option with rules from a TOML file; no Python needed to write them.

    :param rules: the rule file (TOML), or the name of a shipped rule set (default)
    """

    replays_on_resume = False  # every choice depends only on the seed and the observation

    def __init__(self, seed: int = 0, rules: Path = Path("default")) -> None:
        self.seed = seed
        self.ruleset = RuleSet.load(rules)

    def choose(self, observation: Observation | None, decision: Decision) -> Option:
        if observation is None:  # pragma: no cover - this player declares that it observes
            raise ValueError("the rules player needs an observation")
        ruleset = self.ruleset
        best = ruleset.best(observation, decision)
        options = decision.options
        if len(best) == 1 or ruleset.fallback == "first":
            return options[best[0]]
        return options[best[tie_break(self.seed, observation, decision, len(best))]]
