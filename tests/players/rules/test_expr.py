"""The expression language of rule files: values and precedence worked out by hand, and the
errors a person makes (with the column they point at)."""

from __future__ import annotations

from typing import Any

import pytest

from deathangel.players.rules.expr import (
    BOOL,
    LIST,
    NUMBER,
    TEXT,
    Compiler,
    ExprError,
    Function,
    Variable,
    div,
)

# A small vocabulary over a plain dict, so each expected value is worked out from the numbers
# written here, not from the game.
VOCAB: dict[str, Variable | Function] = {
    "front": Variable(NUMBER, "o['front']", ""),
    "behind": Variable(NUMBER, "o['behind']", ""),
    "facing": Variable(TEXT, "o['facing']", ""),
    "colors": Variable(LIST, "o['colors']", ""),
    "final": Variable(BOOL, "o['final']", ""),
    "max": Function((NUMBER, NUMBER, "..."), NUMBER, "max({*})", ""),
    "twice": Function((NUMBER,), NUMBER, "(2 * {0})", ""),
}
SITUATION = {
    "front": 3,
    "behind": 2,
    "facing": "left",
    "colors": frozenset({"red"}),
    "final": False,
}


def value(source: str, lets: dict[str, str] | None = None) -> Any:
    compiler = Compiler(VOCAB)
    for name, text in (lets or {}).items():
        compiler.lets[name] = compiler.compile(text)
    _, code = compiler.compile(source)
    return eval(
        code,
        {"__builtins__": {"max": max, "frozenset": frozenset}, "_div": div},
        {
            "o": SITUATION,
            "c": None,
        },
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 4 - 3", 3),
        ("-front + 1", -2),
        ("front * 2 - behind", 4),
        ("front / 2", 1.5),
        ("front / 0", 0.0),
        ("front > behind and facing == 'left'", True),
        ('front > behind and not (facing == "left")', False),
        ("final or front >= 3", True),
        ("not final and behind != 2", False),
        ("'red' in colors", True),
        ("'green' not in colors", True),
        ("'ef' in facing", True),
        ("facing in ['left', 'right']", True),
        ("10 * (front > 2) + (behind > 2)", 10),
        ("max(front, behind, 7)", 7),
        ("twice(front + 1)", 8),
        ("0.5 + .25", 0.75),
    ],
)
def test_values(source: str, expected: Any) -> None:
    assert value(source) == expected


def test_lets_are_names_for_expressions() -> None:
    lets = {"danger": "front + behind", "doomed": "danger >= 5"}
    assert value("danger * 2", lets) == 10
    assert value("doomed and not final", lets) is True


def test_or_binds_looser_than_and() -> None:
    # true or (false and false): true; (true or false) and false would be false.
    assert value("front == 3 or final and final") is True


@pytest.mark.parametrize(
    ("source", "message", "column"),
    [
        ("fornt > 1", "unknown name 'fornt'; did you mean 'front'?", 0),
        ("front > ", "expected a value, found the end", 8),
        ("front >> 1", "expected a value, found '>'", 7),
        ("(front > 1", "expected ')', found the end", 10),
        ("front > 1)", "unexpected ')'", 9),
        ("front $ 1", "unexpected character '$'", 6),
        ("facing == 'left", "text starting with ' is never closed", 10),
        ("front + facing", "expected a number, but this is a text", 8),
        ("front == facing", "== compares a number with a text", 6),
        ("front and final", "expected a condition (true or false), but this is a number", 0),
        (
            "front in colors",
            "'in' asks whether a text is in a list or in another text, "
            "not a number in a list of texts",
            6,
        ),
        ("['a', 1]", "a list holds texts, not a number", 6),
        ("maxx(front, 1)", "unknown function 'maxx'; did you mean 'max'?", 0),
        ("twice(front, 1)", "twice() takes 1 argument(s), not 2", 0),
        ("max(front)", "max() takes at least 2 argument(s), not 1", 0),
        ("twice(facing)", "argument 1 of twice() must be a number, not a text", 6),
        ("front(1)", "'front' is not a function", 0),
        ("max + 1", "'max' is a function: write max(...)", 0),
        ("", "the expression is empty", 0),
    ],
)
def test_errors_name_the_problem_and_the_column(source: str, message: str, column: int) -> None:
    with pytest.raises(ExprError) as caught:
        value(source)
    assert caught.value.message == message
    assert caught.value.column == column


def test_a_wanted_type_is_checked() -> None:
    compiler = Compiler(VOCAB)
    with pytest.raises(ExprError, match="this must be a condition, but it is a number"):
        compiler.compile("front + 1", BOOL)
    with pytest.raises(ExprError, match="this must be a number, but it is a text"):
        compiler.compile("facing", NUMBER)
    # A condition counts as a number (1 or 0) where a score is wanted.
    assert compiler.compile("front > 1", NUMBER)[0] == BOOL


def test_texts_never_reach_the_code_unquoted() -> None:
    # A text that looks like Python stays a text: it is quoted, never run.
    assert value("facing == '__import__(\"os\")'") is False
