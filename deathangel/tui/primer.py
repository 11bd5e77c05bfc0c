"""The game in one screen, for a newcomer: what ``?`` shows at any prompt of ``play``.

The same lines open ``docs/how-to-play.md`` (a test keeps the two the same), so a player who
reads either reads one text.
"""

from __future__ import annotations

PRIMER: tuple[str, ...] = (
    "You are Space Marines in one line, the formation; genestealers gather in swarms on its",
    "left and right. A round has four phases: Choose Actions, Resolve Actions, Genestealer",
    "Attack, Event.",
    "- Choose Actions: each of your combat teams picks one action card, face down; never the",
    "  card it played last round.",
    "- Resolve Actions: the cards resolve, lowest initiative first. Support puts a support",
    "  token on a marine; Move + Activate swaps marines, turns them and uses terrain; Attack",
    "  lets each marine of the team roll at a swarm in front of him, within his range (rN).",
    "  A skull (faces 1, 2, 3) slays one genestealer; 0, 4 and 5 miss. Cards change this.",
    "- Genestealer Attack: each swarm attacks the marine at its row once, top row first. He",
    "  rolls: a face at most the size of the swarm (minus 1 per Brood Lord) slays him.",
    "- Event: an Event card's ability, then genestealers spawn at terrain of the colours it",
    "  shows, then swarms with its icon move.",
    "- Support tokens: right after a marine's attack or defence roll, one of his tokens buys",
    "  a new roll, but only against a swarm he faces.",
    "- When a blip pile (the genestealers still to come on a side) is empty, the marines travel",
    "  to the next location.",
    "- You win at the final location once both blip piles are empty and no genestealer is",
    "  left, or when its own goal is met; you lose when every marine is slain.",
    "More: docs/how-to-play.md, and every rule in docs/rules.md.",
)
"""The summary, line by line (at most 90 characters each: it fits a terminal)."""
