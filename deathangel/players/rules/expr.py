"""The small expression language of rule files: parsed, type-checked, then compiled once.

A rule's condition (``if``) and score (``score``) are expressions over named values of the
decision and of each option (``front >= 2 and card_kind == 'attack'``). They are written by
people who should not need Python, and they run at every decision of thousands of games, so:

- a hand-written parser gives errors that point at the column and name close matches, and
  knows nothing beyond this grammar (no attribute access, no calls but the listed functions);
- every expression is type-checked at load time (number, condition, text, list of texts), so a
  broken file fails before the first game, not in the middle of the thousandth;
- a checked tree is turned into Python source built only from this module's own templates
  (names map to fixed snippets, texts are quoted with ``repr``) and compiled once: evaluating
  it is then one Python call, which measured about 20 times faster than walking the tree.

Grammar (lowest precedence first)::

    expr    := or_
    or_     := and_ ("or" and_)*
    and_    := not_ ("and" not_)*
    not_    := "not" not_ | compare
    compare := sum [("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in") sum]
    sum     := product (("+" | "-") product)*
    product := unary (("*" | "/") unary)*
    unary   := "-" unary | atom
    atom    := NUMBER | TEXT | "true" | "false" | NAME | NAME "(" [expr ("," expr)*] ")"
             | "(" expr ")" | "[" [expr ("," expr)*] "]"

A condition counts as 1 (true) or 0 (false) in arithmetic; a number is never a condition.
Division by zero gives 0 (a rule should not crash a game of thousands).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence

from attrs import frozen

NUMBER = "number"
BOOL = "condition"
TEXT = "text"
LIST = "list of texts"

_NUMERIC = (NUMBER, BOOL)


class ExprError(ValueError):
    """A bad expression: ``column`` is 0-based inside the expression text."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@frozen
class Variable:
    """A name an expression may read."""

    type: str
    code: str
    """Python source that computes it, over the situation ``c`` and the option ``o``."""
    help: str


@frozen
class Function:
    """A function an expression may call."""

    args: tuple[str, ...]
    """The argument types; a trailing ``"..."`` means "any number more of the last type"."""
    type: str
    code: str
    """Python source with ``{0}``, ``{1}``... for the arguments (``{*}`` for all of them,
    joined with commas)."""
    help: str


Vocabulary = Mapping[str, Variable | Function]

# -- tokens ----------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>\d+(?:\.\d*)?|\.\d+)
      | (?P<text>'[^']*'|"[^"]*")
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<op>==|!=|<=|>=|<|>|\+|-|\*|/|\(|\)|\[|\]|,)
    )""",
    re.VERBOSE,
)
_KEYWORDS = frozenset({"and", "or", "not", "in", "true", "false"})


@frozen
class Token:
    kind: str
    """``number``, ``text``, ``name``, ``op`` or ``end``."""
    value: str
    column: int


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(source):
        if source[pos:].strip() == "":
            break
        m = _TOKEN.match(source, pos)
        if m is None or m.lastgroup is None:
            col = pos + len(source[pos:]) - len(source[pos:].lstrip())
            ch = source[col]
            if ch in "'\"":
                raise ExprError(f"text starting with {ch} is never closed", col)
            raise ExprError(f"unexpected character {ch!r}", col)
        kind = m.lastgroup
        tokens.append(Token(kind, m.group(kind), m.start(kind)))
        pos = m.end()
    tokens.append(Token("end", "", len(source)))
    return tokens


# -- the tree --------------------------------------------------------------------------------


@frozen
class Node:
    """One node of a parsed expression: ``op`` says which; ``value`` holds a literal or name."""

    op: str
    """``num``, ``text``, ``bool``, ``name``, ``call``, ``list``, ``neg``, ``not``, ``and``,
    ``or``, an arithmetic operator or a comparison."""
    column: int
    value: object = None
    children: tuple[Node, ...] = ()


class _Parser:
    def __init__(self, source: str) -> None:
        self.tokens = tokenize(source)
        self.i = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def at(self, value: str, kind: str | None = None) -> bool:
        tok = self.tok
        if kind is not None and tok.kind != kind:
            return False
        return tok.kind in ("op", "name") and tok.value == value

    def expect(self, value: str) -> Token:
        if not self.at(value):
            raise ExprError(f"expected {value!r}, found {self._found()}", self.tok.column)
        return self.take()

    def _found(self) -> str:
        tok = self.tok
        return "the end" if tok.kind == "end" else repr(tok.value)

    def parse(self) -> Node:
        if self.tok.kind == "end":
            raise ExprError("the expression is empty", 0)
        node = self.or_()
        if self.tok.kind != "end":
            raise ExprError(f"unexpected {self._found()}", self.tok.column)
        return node

    def or_(self) -> Node:
        node = self.and_()
        while self.at("or", "name"):
            col = self.take().column
            node = Node("or", col, None, (node, self.and_()))
        return node

    def and_(self) -> Node:
        node = self.not_()
        while self.at("and", "name"):
            col = self.take().column
            node = Node("and", col, None, (node, self.not_()))
        return node

    def not_(self) -> Node:
        if self.at("not", "name"):
            col = self.take().column
            return Node("not", col, None, (self.not_(),))
        return self.compare()

    def compare(self) -> Node:
        node = self.sum()
        tok = self.tok
        if tok.kind == "op" and tok.value in ("==", "!=", "<", "<=", ">", ">="):
            self.take()
            return Node(tok.value, tok.column, None, (node, self.sum()))
        if self.at("in", "name"):
            self.take()
            return Node("in", tok.column, None, (node, self.sum()))
        if self.at("not", "name") and self.tokens[self.i + 1].value == "in":
            self.i += 2
            return Node("not in", tok.column, None, (node, self.sum()))
        return node

    def sum(self) -> Node:
        node = self.product()
        while self.tok.kind == "op" and self.tok.value in ("+", "-"):
            tok = self.take()
            node = Node(tok.value, tok.column, None, (node, self.product()))
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.tok.kind == "op" and self.tok.value in ("*", "/"):
            tok = self.take()
            node = Node(tok.value, tok.column, None, (node, self.unary()))
        return node

    def unary(self) -> Node:
        if self.at("-", "op"):
            col = self.take().column
            return Node("neg", col, None, (self.unary(),))
        return self.atom()

    def atom(self) -> Node:
        tok = self.tok
        if tok.kind == "number":
            self.take()
            value = float(tok.value) if "." in tok.value else int(tok.value)
            return Node("num", tok.column, value)
        if tok.kind == "text":
            self.take()
            return Node("text", tok.column, tok.value[1:-1])
        if tok.kind == "name":
            if tok.value in ("true", "false"):
                self.take()
                return Node("bool", tok.column, tok.value == "true")
            if tok.value in _KEYWORDS:
                raise ExprError(f"expected a value, found {tok.value!r}", tok.column)
            self.take()
            if self.at("(", "op"):
                self.take()
                args = self.items(")")
                return Node("call", tok.column, tok.value, tuple(args))
            return Node("name", tok.column, tok.value)
        if self.at("(", "op"):
            self.take()
            node = self.or_()
            self.expect(")")
            return node
        if self.at("[", "op"):
            self.take()
            return Node("list", tok.column, None, tuple(self.items("]")))
        raise ExprError(f"expected a value, found {self._found()}", tok.column)

    def items(self, close: str) -> list[Node]:
        items: list[Node] = []
        if self.at(close, "op"):
            self.take()
            return items
        while True:
            items.append(self.or_())
            if self.at(",", "op"):
                self.take()
                continue
            self.expect(close)
            return items


def parse(source: str) -> Node:
    """The tree of ``source``; :class:`ExprError` for a syntax error."""
    return _Parser(source).parse()


# -- types and code ----------------------------------------------------------------------------


# Whether a piece of code reads the situation ``c`` or the option's subject ``o``: the only
# names the vocabulary's snippets read them by. A text literal holding the word "o" counts as
# reading the option, which only keeps a piece from being hoisted (never wrong).
_READS_SITUATION = re.compile(r"\bc\b").search
_READS_OPTION = re.compile(r"\bo\b").search


def _close(name: str, known: Sequence[str]) -> str:
    matches = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    if not matches:
        return ""
    return "; did you mean " + " or ".join(repr(m) for m in matches) + "?"


class Compiler:
    """Type-checks trees against a vocabulary and writes their Python source."""

    def __init__(self, vocabulary: Vocabulary, lets: Mapping[str, tuple[str, str]] | None = None):
        self.vocabulary = vocabulary
        self.lets: dict[str, tuple[str, str]] = dict(lets or {})
        """Names defined by the rule file: name → (type, Python source)."""
        self.hoist: Callable[[str, bool], str] | None = None
        """When set, every piece of code that reads the situation is passed through it, with
        whether it also reads the option (see :meth:`node`): a rule set uses it to compute a
        piece once per decision, or once per option, instead of at every mention."""

    def known(self) -> list[str]:
        return [*self.vocabulary, *self.lets]

    def compile(self, source: str, want: str | None = None) -> tuple[str, str]:
        """(type, Python source) of ``source``; with ``want``, that type is required (a
        condition is accepted where a number is wanted)."""
        node = parse(source)
        kind, code = self.node(node)
        if want is not None and kind != want and not (want == NUMBER and kind == BOOL):
            raise ExprError(f"this must be {_a(want)}, but it is {_a(kind)}", 0)
        return kind, code

    def node(self, n: Node) -> tuple[str, str]:
        kind, code = self._node(n)
        if self.hoist is not None and _READS_SITUATION(code):
            code = self.hoist(code, _READS_OPTION(code) is not None)
        return kind, code

    def _node(self, n: Node) -> tuple[str, str]:
        op = n.op
        if op == "num":
            return NUMBER, repr(n.value)
        if op == "text":
            return TEXT, repr(n.value)
        if op == "bool":
            return BOOL, repr(n.value)
        if op == "name":
            return self.name(n)
        if op == "call":
            return self.call(n)
        if op == "list":
            codes = []
            for child in n.children:
                kind, code = self.node(child)
                if kind != TEXT:
                    raise ExprError(f"a list holds texts, not {_a(kind)}", child.column)
                codes.append(code)
            if codes and all(child.op == "text" for child in n.children):
                # A list of constant texts is only ever asked "x in list": written as a set
                # display, CPython folds it into one constant frozenset when it compiles the
                # rule, rather than build one at every evaluation (measured: 1.7% of the
                # default rules' decisions in a search, which test lists of card names).
                return LIST, "{" + "".join(c + "," for c in codes) + "}"
            return LIST, "frozenset((" + "".join(c + "," for c in codes) + "))"
        if op == "neg":
            kind, code = self.number(n.children[0])
            return NUMBER, f"(-{code})"
        if op == "not":
            code = self.condition(n.children[0])
            return BOOL, f"(not {code})"
        if op in ("and", "or"):
            a = self.condition(n.children[0])
            b = self.condition(n.children[1])
            return BOOL, f"({a} {op} {b})"
        if op in ("+", "-", "*"):
            a = self.number(n.children[0])[1]
            b = self.number(n.children[1])[1]
            return NUMBER, f"({a} {op} {b})"
        if op == "/":
            a = self.number(n.children[0])[1]
            b = self.number(n.children[1])[1]
            return NUMBER, f"_div({a}, {b})"
        if op in ("<", "<=", ">", ">="):
            a = self.number(n.children[0])[1]
            b = self.number(n.children[1])[1]
            return BOOL, f"({a} {op} {b})"
        if op in ("==", "!="):
            ka, a = self.node(n.children[0])
            kb, b = self.node(n.children[1])
            if not (ka == kb or (ka in _NUMERIC and kb in _NUMERIC)):
                raise ExprError(f"{op} compares {_a(ka)} with {_a(kb)}", n.column)
            if LIST in (ka, kb):
                raise ExprError(f"{op} cannot compare lists; use 'in'", n.column)
            return BOOL, f"({a} {op} {b})"
        if op in ("in", "not in"):
            ka, a = self.node(n.children[0])
            kb, b = self.node(n.children[1])
            if ka != TEXT or kb not in (TEXT, LIST):
                raise ExprError(
                    f"'{op}' asks whether a text is in a list or in another text, "
                    f"not {_a(ka)} in {_a(kb)}",
                    n.column,
                )
            return BOOL, f"({a} {op} {b})"
        raise AssertionError(op)  # pragma: no cover - the parser makes no other node

    def name(self, n: Node) -> tuple[str, str]:
        name = str(n.value)
        if name in self.lets:
            kind, code = self.lets[name]
            return kind, f"({code})"
        entry = self.vocabulary.get(name)
        if isinstance(entry, Variable):
            return entry.type, f"({entry.code})"
        if isinstance(entry, Function):
            raise ExprError(f"{name!r} is a function: write {name}(...)", n.column)
        raise ExprError(f"unknown name {name!r}{_close(name, self.known())}", n.column)

    def call(self, n: Node) -> tuple[str, str]:
        name = str(n.value)
        entry = self.vocabulary.get(name)
        if not isinstance(entry, Function):
            if isinstance(entry, Variable) or name in self.lets:
                raise ExprError(f"{name!r} is not a function", n.column)
            functions = [k for k, v in self.vocabulary.items() if isinstance(v, Function)]
            raise ExprError(f"unknown function {name!r}{_close(name, functions)}", n.column)
        want = list(entry.args)
        varargs = bool(want) and want[-1] == "..."
        if varargs:
            want.pop()
        args = n.children
        if len(args) < len(want) or (len(args) > len(want) and not varargs):
            count = f"at least {len(want)}" if varargs else str(len(want))
            raise ExprError(f"{name}() takes {count} argument(s), not {len(args)}", n.column)
        codes = []
        for i, arg in enumerate(args):
            expected = want[min(i, len(want) - 1)]
            kind, code = self.node(arg)
            if kind != expected and not (expected == NUMBER and kind == BOOL):
                raise ExprError(
                    f"argument {i + 1} of {name}() must be {_a(expected)}, not {_a(kind)}",
                    arg.column,
                )
            codes.append(code)
        if "{*}" in entry.code:
            return entry.type, "(" + entry.code.replace("{*}", ", ".join(codes)) + ")"
        return entry.type, "(" + entry.code.format(*codes) + ")"

    def number(self, n: Node) -> tuple[str, str]:
        kind, code = self.node(n)
        if kind not in _NUMERIC:
            raise ExprError(f"expected a number, but this is {_a(kind)}", n.column)
        return NUMBER, code

    def condition(self, n: Node) -> str:
        kind, code = self.node(n)
        if kind != BOOL:
            raise ExprError(
                f"expected a condition (true or false), but this is {_a(kind)}", n.column
            )
        return code


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def div(a: float, b: float) -> float:
    """Division that gives 0 for a zero divisor (see the module docstring)."""
    return a / b if b else 0.0
