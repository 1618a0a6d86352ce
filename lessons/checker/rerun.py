"""Rewrite a learner's script so that a second run gets other values for some of its inputs.

A pass must rest on the learner's own computation. A figure that is typed in,
copied from the lesson or computed from the wrong arrays can agree with the
right answer on one set of inputs; it cannot keep agreeing when the inputs
change. So the checker runs the script a second time with, say, ``pos``
replaced by a per-slot signal or ``Wv`` scaled, and requires the figures of
that run to be what the learner's code, honestly run, gives on *those* arrays.

The replacement is one statement, ``name = <expression>``, put into the
script's own syntax tree just before the first statement that reads ``name``
after it is first bound (so the learner's code from there on sees the new
value), or after the last statement that binds it when nothing reads it.
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Mapping

# Where the replacement expressions live, importable inside the learner's process.
SUBSTITUTES_MODULE = "attnpos.lessons.checker.substitutes"


# CPython 3.11's ast module keeps its recursion count in state shared by every thread, and two threads
# parsing at once have raised "SystemError: AST constructor recursion depth mismatch" here (lessons --check
# and the checker's parallel runs): every parse and unparse of learner source goes through this lock.
AST_LOCK = threading.Lock()


def parse(source: str) -> ast.Module:
    """ast.parse, one thread at a time, and once more if another thread's conversion crossed this one's anyway
    (the count is shared with every ast call in the process, ours or not, and reset at each call's start)."""
    with AST_LOCK:
        try:
            return ast.parse(source)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error):
                raise
            return ast.parse(source)


def unparse(tree: ast.AST) -> str:
    """ast.unparse, one thread at a time."""
    with AST_LOCK:
        return ast.unparse(tree)


class TooDeep(ValueError):
    """The script parses, but its syntax tree is too deep to write back out (``1 + 1 + … + 1``, 900 terms)."""


def substitute(source: str, replacements: Mapping[str, str]) -> str | None:
    """The script with each ``name`` rebound to ``replacements[name]`` (a call into the substitutes module).

    The expression is written as ``function(name, other, ...)``: the function
    of :mod:`substitutes` to call and the learner's names it is given. Returns
    None when the script does not parse or binds one of the names nowhere at
    its top level, where a rerun cannot reach it; raises :class:`TooDeep`
    when the rewritten tree is too deep for ``ast.unparse``.
    """
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    inserts: list[tuple[list[ast.stmt], int, ast.stmt]] = []
    for name, call in replacements.items():
        found = _insertion_point(tree.body, name)
        if found is None:
            return None
        body, index = found
        inserts.append((body, index, _rebinding(name, call)))
    # Insert from the bottom of each body up, so earlier indices stay valid.
    for body, index, statement in sorted(inserts, key=lambda item: item[1], reverse=True):
        body.insert(index, statement)
    try:
        return unparse(ast.fix_missing_locations(tree))
    except RecursionError:
        raise TooDeep("the script's syntax tree is too deep to rewrite") from None


def substituted_values(values: Mapping[str, object], replacements: Mapping[str, str]) -> dict[str, object]:
    """The values a rerun's replacements give, computed here rather than in a rewritten script (for the separation test).

    Applied in order, each seeing the ones before, as in the rewritten script.
    """
    from attnpos.lessons.checker import substitutes

    changed = dict(values)
    for name, call in replacements.items():
        function, arguments = _call_parts(call)
        changed[name] = getattr(substitutes, function)(*(changed.get(argument) for argument in arguments))
    return changed


def _call_parts(call: str) -> tuple[str, list[str]]:
    """``"scaled(Wv)"`` -> ("scaled", ["Wv"])."""
    function, _, rest = call.partition("(")
    return function, [argument.strip() for argument in rest.rstrip(")").split(",") if argument.strip()]


def indexes_by(source: str, signal: str, perm: str) -> bool:
    """Whether the script indexes ``signal``, or anything computed from it, with ``perm`` (``(X + pos)[:, perm]``).

    Evidence that the position signal was shuffled together with the tokens.
    """
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return False
    carriers = _derived(tree, signal)
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _mentions_any(node.value, carriers) and _mentions(node.slice, perm):
            if not _calls_attention(node.value):  # attention(X + pos)[:, perm] reorders outputs, as it should
                return True
        if isinstance(node, ast.Call) and _called(node) in {"take", "permute_tokens"} and node.args:
            if _mentions_any(node.args[0], carriers) and any(_mentions(arg, perm) for arg in node.args[1:]):
                return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            if _mentions(node.left, perm) and _mentions_any(node.right, carriers):
                return True
    return False


def _derived(tree: ast.Module, name: str) -> set[str]:
    """``name`` and every name assigned from an expression that uses it, up to an attention call (whose outputs are no longer inputs)."""
    carriers = {name}
    assignments = [
        (node.targets if isinstance(node, ast.Assign) else [node.target], node.value)
        for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None
    ]
    while True:
        grown = set(carriers)
        for targets, value in assignments:
            if _mentions_any(value, carriers) and not _calls_attention(value):
                grown |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        if grown == carriers:
            return carriers
        carriers = grown


def typed_in(source: str, name: str) -> bool:
    """Whether the last top-level assignment to ``name`` uses no value the script computed (``max_diff = 4.4e-16``, ``np.finfo(float).eps``)."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return False
    values = [
        statement.value for body in _module_bodies(tree.body) for statement in body
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
    ]
    if not values:
        return False
    computed = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return not _mentions_any(values[-1], computed)


def reaches_attention(source: str, signal: str) -> bool:
    """Whether ``signal``, or anything computed from it, is passed to an attention call."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return False
    carriers = _derived(tree, signal)
    return any(
        isinstance(node, ast.Call) and _is_attention(node) and any(_mentions_any(arg, carriers) for arg in node.args)
        for node in ast.walk(tree)
    )


def added_to_outputs(source: str, signal: str, outputs: tuple[str, ...]) -> bool:
    """Whether ``signal`` is added to an attention call's result or to one of the named outputs (``attn(X) + pos``)."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for one, other in ((node.left, node.right), (node.right, node.left)):
                if _mentions(one, signal) and not _mentions(other, signal) and _is_output(other, outputs):
                    return True
    return False


def _is_output(node: ast.expr, outputs: tuple[str, ...]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in outputs
    if isinstance(node, ast.Subscript):
        return _is_output(node.value, outputs)
    return isinstance(node, ast.Call) and _is_attention(node)


# What a call that runs attention is called: the core's attention_output, or a learner's own head.
ATTENTION_WORDS = ("attention", "attend", "head")


def _is_attention(call: ast.Call) -> bool:
    return any(word in _called(call).lower() for word in ATTENTION_WORDS)


def _calls_attention(node: ast.AST) -> bool:
    return any(isinstance(inner, ast.Call) and _is_attention(inner) for inner in ast.walk(node))


# --- finding where to put the new value -------------------------------------------


def _module_bodies(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """The top level, and the body of an ``if __name__ == "__main__":`` block (also module level)."""
    bodies = [body]
    for statement in body:
        if isinstance(statement, ast.If) and _is_main_guard(statement.test):
            bodies.append(statement.body)
    return bodies


def _is_main_guard(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
        and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def _insertion_point(module_body: list[ast.stmt], name: str) -> tuple[list[ast.stmt], int] | None:
    for body in [*_module_bodies(module_body), *_bodies_declaring_global(module_body, name)]:
        binders = [i for i, statement in enumerate(body) if _binds(statement, name)]
        if not binders:
            continue
        for index in range(binders[0] + 1, len(body)):
            if _reads(body[index], name) and not _binds(body[index], name):
                return body, index
        return body, binders[-1] + 1
    return None


def _bodies_declaring_global(module_body: list[ast.stmt], name: str) -> list[list[ast.stmt]]:
    """Bodies of functions that set ``name`` as a module global (``def main(): global pos …``)."""
    return [
        statement.body for body in _module_bodies(module_body) for statement in body
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(isinstance(inner, ast.Global) and name in inner.names for inner in statement.body)
    ]


def _binds(statement: ast.stmt, name: str) -> bool:
    """The statement gives ``name`` its value: assigns it, fills it in place, or calls a method of it."""
    if isinstance(statement, ast.If) and _is_main_guard(statement.test):
        return False  # its body is searched as a body of its own
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False  # a name bound inside a function is the function's own
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store) and _root(node) == name:
            return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        function = statement.value.func
        return isinstance(function, ast.Attribute) and _root(function) == name  # pos.fill(0.6)
    return False


def _reads(statement: ast.stmt, name: str) -> bool:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        return False  # a definition reads its names only when called
    if isinstance(statement, ast.If) and _is_main_guard(statement.test):
        return any(_reads(inner, name) for inner in statement.body)
    return any(isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) for node in ast.walk(statement))


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(inner, ast.Name) and inner.id == name for inner in ast.walk(node))


def _mentions_any(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(inner, ast.Name) and inner.id in names for inner in ast.walk(node))


def _called(call: ast.Call) -> str:
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def _rebinding(name: str, call: str) -> ast.stmt:
    """``name = __import__(SUBSTITUTES_MODULE, fromlist=["_"]).function(args...)``; args are the learner's names, or None if unbound."""
    function, arguments = _call_parts(call)
    looked_up = ", ".join(f"globals().get({argument!r})" for argument in arguments)
    text = f"{name} = __import__({SUBSTITUTES_MODULE!r}, fromlist=['_']).{function}({looked_up})"
    return parse(text).body[0]
