"""The checker's reading of a learner's script, done inside the learner's own sandboxed process.

Nothing here runs in the app: each run's request names this module (the
fork server has imported it) and the learner process, before its script
runs, rewrites the script for a rerun (:func:`rewrite`) or answers the
questions a contract's judge asks of its source (:func:`answer`). So no
learner syntax tree is ever built in the app's threads, and one too deep to
write back out fails in the confined process, where it is reported as the
rerun's failure. Only the standard library: the learner process imports it.

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
A table the script builds (a name ending in :data:`FINISHED`) is rebound
where it is finished instead: past the statements that write into it and
the checks that only look at it (``assert``, ``print``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import lru_cache

from attnpos.lessons.checker.learner_modules import SUBSTITUTES_MODULE

# A replaced name ending so is rebound only where the script binds it: a function the brief suggests, not requires.
OPTIONAL = "?"
# A replaced name ending so is an input the starter gives (X, grad_out, hs): rebound right after the script first binds
# it (and the names its replacement takes), so that whatever the script does to it after, it does to the checker's value.
GIVEN = "!"
# The call that keeps a given input as it is (only a copy kept beside, substitutes.given): a run that replaces nothing.
UNCHANGED = "unchanged"
# A replaced name ending so is one the script builds, filled in place (``pe[:, 0::2] = …``, ``np.sin(a, out=pe[…])``,
# ``pe.append(row)``) and perhaps checked on the way (``assert pe.shape == (T, C)``): rebound where it is finished.
FINISHED = "+"


class TooDeep(ValueError):
    """The script parses, but its syntax tree is too deep to write back out (``1 + 1 + … + 1``, 900 terms)."""


class Unrewritable(ValueError):
    """The script cannot be rewritten for a rerun; the message says why, in the learner's words."""


def rewrite(source: str, replacements: Mapping[str, str]) -> str:
    """The script for a rerun (:func:`substitute`); raises :class:`Unrewritable` saying why there is none.

    When every replacement keeps a given input unchanged (the script's first run), the script is its own text with a
    copy kept after each first binding (:func:`given_kept`), so that every line keeps its number.
    """
    if all(call.startswith(UNCHANGED + "(") for call in replacements.values()):
        return given_kept(source, [name.removesuffix(GIVEN) for name in replacements])
    try:
        rewritten = substitute(source, replacements)
    except TooDeep:
        raise Unrewritable("the script nests too deeply (a very long expression?) for the checker to rewrite it") from None
    if rewritten is None:
        names = ", ".join(f"`{name.removesuffix(GIVEN).removesuffix(FINISHED)}`" for name in replacements if not name.endswith(OPTIONAL))
        raise Unrewritable(f"{names} must be set at the top level of the script, where the checker can replace it")
    return rewritten


def answer(source: str, question: Sequence[object]) -> bool:
    """The answer to ``[function, *arguments]``: ``QUESTIONS[function](source, *arguments)``."""
    function, *arguments = question
    return bool(QUESTIONS[str(function)](source, *arguments))


def substitute(source: str, replacements: Mapping[str, str]) -> str | None:
    """The script with each ``name`` rebound to ``replacements[name]`` (a call into the substitutes module).

    The expression is written as ``function(name, other, ...)``: the function
    of :mod:`substitutes` to call and the learner's names it is given. Returns
    None when the script does not parse or binds one of the names nowhere at
    its top level, where a rerun cannot reach it (unless the name ends with
    :data:`OPTIONAL`, which is then left alone); raises :class:`TooDeep`
    when the rewritten tree is too deep for ``ast.unparse``.
    """
    tree = _parsed(source)
    if tree is None:
        return None
    inserts: list[tuple[list[ast.stmt], int, int, ast.stmt]] = []
    for order, (name, call) in enumerate(replacements.items()):
        if name.endswith(GIVEN):
            bare = name.removesuffix(GIVEN)
            found = _after_first_binding(tree.body, bare, _call_parts(call)[1])
            if found is None:
                if call.startswith(UNCHANGED + "("):
                    continue  # only a copy kept, of an input the script does not bind where the starter does
                return None
            inserts.append((*found, order, _rebinding(bare, call)))
            continue
        bare = name.removesuffix(OPTIONAL).removesuffix(FINISHED)
        found = _insertion_point(tree.body, bare, finished=name.endswith(FINISHED))
        if found is None:
            if name.endswith(OPTIONAL):
                continue  # an optional name the script does without
            return None
        inside = _inside_builder(tree.body, bare)
        body, index = found if inside is None else inside
        inserts.append((body, index, order, _rebinding(bare, call, local=inside is not None)))
    # Insert from the bottom of each body up, so earlier indices stay valid (at one index, in the replacements' order).
    for body, index, _, statement in sorted(inserts, key=lambda item: (item[1], item[2]), reverse=True):
        body.insert(index, statement)
    try:
        return ast.unparse(ast.fix_missing_locations(tree))
    except RecursionError:
        raise TooDeep("the script's syntax tree is too deep to rewrite") from None


def _parsed(source: str) -> ast.Module | None:
    """The script's syntax tree; None when it does not parse (or is too deep to), so no question finds anything in it."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None


@lru_cache(maxsize=1)
def _question_tree(source: str) -> ast.Module | None:
    """The tree every question reads (none changes it): parsed once for all of a run's questions."""
    return _parsed(source)


def _call_parts(call: str) -> tuple[str, list[str]]:
    """``"scaled(Wv)"`` -> ("scaled", ["Wv"])."""
    function, _, rest = call.partition("(")
    return function, [argument.strip() for argument in rest.rstrip(")").split(",") if argument.strip()]


def indexes_by(source: str, signal: str, perm: str) -> bool:
    """Whether the script indexes ``signal``, or anything computed from it, with ``perm`` (``(X + pos)[:, perm]``).

    Evidence that the position signal was shuffled together with the tokens.
    """
    tree = _question_tree(source)
    if tree is None:
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
    return _derived_from(tree, {name})


def _derived_from(tree: ast.Module, names: set[str]) -> set[str]:
    """``names`` and every name assigned from an expression that uses one of them, up to an attention call."""
    carriers = set(names)
    assignments = [
        (node.targets if isinstance(node, ast.Assign) else [node.target], node.value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None
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
    tree = _question_tree(source)
    if tree is None:
        return False
    values = [
        statement.value
        for body in _module_bodies(tree.body)
        for statement in body
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
    ]
    if not values:
        return False
    computed = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return not _mentions_any(values[-1], computed)


def reaches_attention(source: str, signal: str) -> bool:
    """Whether ``signal``, or anything computed from it, is passed to an attention call."""
    tree = _question_tree(source)
    if tree is None:
        return False
    carriers = _derived(tree, signal)
    return any(isinstance(node, ast.Call) and _is_attention(node) and any(_mentions_any(arg, carriers) for arg in node.args) for node in ast.walk(tree))


def added_to_outputs(source: str, signal: str, outputs: tuple[str, ...]) -> bool:
    """Whether ``signal`` is added to an attention call's result or to one of the named outputs (``attn(X) + pos``)."""
    tree = _question_tree(source)
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for one, other in ((node.left, node.right), (node.right, node.left)):
                if _mentions(one, signal) and not _mentions(other, signal) and _is_output(other, outputs):
                    return True
    return False


def borrows(source: str, allowed: Collection[str]) -> bool:
    """Whether the script takes anything from attnpos beyond ``allowed`` (the ``softmax`` a starter imports).

    Every form counts: ``from attnpos.core import rope_rotate``, ``from
    attnpos.core.rotary import *``, any attribute reached through an
    imported attnpos module (``import attnpos.core as c; c.alibi_slopes``),
    and any attribute of an allowed function or a ``getattr``/``vars``/``dir``
    of anything of attnpos (``softmax.__module__``, ``softmax.__globals__``:
    the way to the course's module). A function of the learner's own that
    happens to share a name is not borrowing. Names built while the script
    runs are :func:`imports_by_name`'s.
    """
    tree = _question_tree(source)
    if tree is None:
        return False
    modules: set[str] = set()  # names bound to an attnpos module by `import attnpos…`
    taken: set[str] = set()  # names bound to an allowed function of attnpos (`softmax`)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "attnpos":
            packages = {alias.asname or alias.name for alias in node.names if alias.name in ATTNPOS_PACKAGES}  # from attnpos import core
            modules |= packages
            taken |= {alias.asname or alias.name for alias in node.names if alias.name in allowed}
            if any(alias.name not in allowed and (alias.asname or alias.name) not in packages for alias in node.names):
                return True
        if isinstance(node, ast.Import):
            modules |= {alias.asname or alias.name.split(".")[0] for alias in node.names if alias.name.split(".")[0] == "attnpos"}
    reached = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}  # a name read as `name.attr`
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in modules and isinstance(node.ctx, ast.Load) and id(node) not in reached:
            return True  # an attnpos module handed on whole (`operator.attrgetter("ntk_base")(ext)`): what it reaches, no question follows
        if isinstance(node, ast.Attribute) and _root(node) in modules and node.attr not in {*allowed, *ATTNPOS_PACKAGES}:
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in taken:
            return True  # softmax.__module__, softmax.__globals__: the course's module reached through the allowed function
        if isinstance(node, ast.Call) and _called(node) in INTROSPECTING and any(_mentions_any(argument, modules | taken) for argument in node.args):
            return True  # getattr(softmax, "__glob" + "als__"), vars(core)
    return False


def calls_borrowed(source: str, name: str) -> bool:
    """Whether the script calls the function ``name`` of attnpos (the starter's ``softmax``, imported under any name, or
    reached through an imported attnpos module) and defines no function of that name of its own."""
    tree = _question_tree(source)
    if tree is None:
        return False
    modules: set[str] = set()
    taken: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "attnpos":
            taken |= {alias.asname or alias.name for alias in node.names if alias.name == name}
            modules |= {alias.asname or alias.name for alias in node.names if alias.name in ATTNPOS_PACKAGES}
        if isinstance(node, ast.Import):
            modules |= {alias.asname or alias.name.split(".")[0] for alias in node.names if alias.name.split(".")[0] == "attnpos"}
    taken -= {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in taken:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name and _root(node.func) in modules:
            return True
    return False


# Built-ins that reach a module's contents through an object, whatever name the script builds for them.
INTROSPECTING = frozenset({"getattr", "vars", "dir"})


def imports_by_name(source: str) -> bool:
    """Whether the script loads code by a name it builds or looks up while it runs, where no question can follow it.

    ``importlib`` (imported at all), ``__import__``, ``sys.modules``,
    ``exec``, ``eval`` and ``compile``: none is needed for a NumPy answer,
    and each can reach the course's own functions by a name the source never
    spells (``getattr(importlib.import_module("attnpos.core"), "sinus" + "oidal")``).
    """
    tree = _question_tree(source)
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] in LOADING_MODULES for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LOADING_MODULES:
            return True
        if isinstance(node, ast.ImportFrom) and node.module in ("sys", "builtins") and any(alias.name in LOADING_NAMES for alias in node.names):
            return True  # from sys import modules
        if isinstance(node, ast.Name) and node.id in LOADING_BUILTINS:
            return True
        if isinstance(node, ast.Attribute) and node.attr in LOADING_NAMES and _root(node) in INTERPRETER_MODULES:
            return True  # sys.modules["attnpos.core"], builtins.__import__, sys.path.insert(0, a folder of the course's)
        if isinstance(node, ast.Call) and _called(node) in INTROSPECTING and any(_mentions_any(argument, INTERPRETER_MODULES) for argument in node.args):
            return True  # getattr(builtins, "__imp" + "ort__")
    return False


# Built-ins that run or import code named by a string.
LOADING_BUILTINS = frozenset({"__import__", "exec", "eval", "compile"})
# ... and what sys and builtins hold that loads code, or says where it is loaded from.
LOADING_NAMES = LOADING_BUILTINS | {"modules", "path", "meta_path", "path_hooks"}
INTERPRETER_MODULES = frozenset({"sys", "builtins", "__builtins__"})
# Modules that import by a name given as a string (`pkgutil.resolve_name`, `runpy.run_module`, a pickle's GLOBAL), or
# that find the course's folders (the editable install's finder): a NumPy answer needs none.
LOADING_MODULES = frozenset({"importlib", "pkgutil", "runpy", "pickle", "marshal", "zipimport"})


# The packages on the way to a function of the course (`attnpos.core` of attnpos.core.softmax): a step, not a thing taken.
ATTNPOS_PACKAGES = frozenset({"core", "lessons"})


def augments_subscript(source: str, name: str) -> bool:
    """Whether the script adds into ``name[...]`` in place (``grad[ids] += g``), rather than assigning it."""
    tree = _question_tree(source)
    if tree is None:
        return False
    return any(
        isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) and isinstance(node.target.value, ast.Name) and node.target.value.id == name
        for node in ast.walk(tree)
    )


def calls_with(source: str, argument: str) -> bool:
    """Whether the script calls anything with ``argument`` among its arguments (``add_positions(long_ids, …)``)."""
    tree = _question_tree(source)
    if tree is None:
        return False
    return any(isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == argument for a in node.args) for node in ast.walk(tree))


def raises(source: str) -> bool:
    """Whether the script has a ``raise`` statement of its own anywhere (a length check's refusal, rather than NumPy's)."""
    tree = _question_tree(source)
    return tree is not None and any(isinstance(node, ast.Raise) for node in ast.walk(tree))


def types_number(source: str, number: str, kept: Collection[str]) -> bool:
    """Whether the script writes the whole number ``number`` (a size, such as the starter's 6 tokens) in code of its own.

    The starter's own lines are left out: a top-level statement that sets
    one of ``kept`` (``X = rng.standard_normal((6, 16))``). Comments are
    not code, and ``1e-6`` is no 6: only integer literals count.
    """
    own = _own_statements(source, kept)
    seeds = _seed_literals(own)
    return any(
        isinstance(node, ast.Constant) and type(node.value) is int and node.value == int(number) and id(node) not in seeds
        for statement in own
        for node in ast.walk(statement)
    )


def types_whole_numbers(source: str, shape: Sequence[str], kept: Collection[str]) -> bool:
    """Whether the script writes, in code of its own (as :func:`types_number` reads it), nested lists or tuples of whole
    numbers of exactly ``shape`` (``[[3, 7, 3, 1, 3], [7, 2, 2, 9, 0]]`` for ("2", "5")): an array of ids typed in."""
    wanted = tuple(int(n) for n in shape)
    return any(
        isinstance(node, (ast.List, ast.Tuple)) and _whole_numbers_shape(node) == wanted
        for statement in _own_statements(source, kept)
        for node in ast.walk(statement)
    )


def types_numbers(source: str, count: str, kept: Collection[str]) -> bool:
    """Whether the script writes, in code of its own (as :func:`types_number` reads it), a flat list or tuple of exactly
    ``count`` number literals (``[1.0, 0.1, 0.01, 0.001]``): one value typed in for each of something the starter has
    ``count`` of."""

    def literal(node: ast.expr) -> bool:
        inner = node.operand if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) else node
        return isinstance(inner, ast.Constant) and type(inner.value) in (int, float)

    return any(
        isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == int(count) and all(literal(element) for element in node.elts)
        for statement in _own_statements(source, kept)
        for node in ast.walk(statement)
    )


def types_count(source: str, number: str, kept: Collection[str]) -> bool:
    """Whether the script writes, in code of its own (as :func:`types_number` reads it), a whole number of value ``number``
    spelt as a literal or as arithmetic of literals alone (``4``, ``3 + 1``, ``8 // 2``): a count typed in, however it
    is spelt."""
    own = _own_statements(source, kept)
    seeds = _seed_literals(own)
    return any(_whole_value(node) == int(number) and id(node) not in seeds for node in _literal_arithmetic(own))


def types_number_apart(source: str, number: str, kept: Collection[str]) -> bool:
    """:func:`types_number`, not counting a literal that is part of arithmetic of literals alone (the 3 of ``3 + 1``):
    there the count the arithmetic makes is what is typed (:func:`types_count`)."""
    own = _own_statements(source, kept)
    inside = {id(inner) for node in _literal_arithmetic(own) if not isinstance(node, ast.Constant) for inner in ast.walk(node)}
    inside |= _seed_literals(own)
    return any(
        isinstance(node, ast.Constant) and type(node.value) is int and node.value == int(number) and id(node) not in inside
        for statement in own
        for node in ast.walk(statement)
    )


# What a call that seeds a random generator is called: the number it is given is a seed, no size.
SEEDING = frozenset({"default_rng", "RandomState", "seed", "Generator", "PCG64", "MT19937", "SeedSequence"})


def _seed_literals(statements: list[ast.stmt]) -> set[int]:
    """The ids of the whole-number literals the statements give a generator as its seed (the 5 of ``default_rng(5)``)."""
    return {
        id(argument)
        for statement in statements
        for node in ast.walk(statement)
        if isinstance(node, ast.Call) and _called(node) in SEEDING
        for argument in [*node.args, *(keyword.value for keyword in node.keywords if keyword.arg == "seed")]
        if isinstance(argument, ast.Constant)
    }


def _literal_arithmetic(statements: list[ast.stmt]) -> list[ast.expr]:
    """The largest expressions of the statements made of whole-number literals and arithmetic alone (``3 + 1``, ``4``)."""
    found: list[ast.expr] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.expr) and _whole_value(node) is not None:
            found.append(node)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for statement in statements:
        visit(statement)
    return found


def _whole_value(node: ast.expr) -> int | None:
    """The value of whole-number literals combined by + − * // (``3 + 1``: 4); None for anything else."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _whole_value(node.operand)
        return None if value is None else -value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        left, right = _whole_value(node.left), _whole_value(node.right)
        if left is None or right is None or (isinstance(node.op, ast.FloorDiv) and right == 0):
            return None
        if isinstance(node.op, ast.Mult) and max(abs(left), abs(right)) > 2**20:
            return None  # no count: a product this large is no size, and not worth computing
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        return left * right if isinstance(node.op, ast.Mult) else left // right
    return None


def _whole_numbers_shape(node: ast.expr) -> tuple[int, ...] | None:
    """The shape of a list or tuple display nested evenly down to integer literals; None for anything else."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return ()
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return None
    inner = {_whole_numbers_shape(element) for element in node.elts}
    row = inner.pop() if len(inner) == 1 else None
    return None if row is None else (len(node.elts), *row)


def _own_statements(source: str, kept: Collection[str]) -> list[ast.stmt]:
    """The script's top-level statements but the starter's own (those that set one of ``kept``) and a main guard."""
    tree = _question_tree(source)
    if tree is None:
        return []
    return [
        statement
        for body in _module_bodies(tree.body)
        for statement in body
        if not (isinstance(statement, ast.If) and _is_main_guard(statement.test)) and not any(_binds(statement, name) for name in kept)
    ]


def prints(source: str, name: str) -> bool:
    """Whether the script prints ``name``, or anything computed from it, in any form.

    ``print(a / b)``, an f-string, ``np.round``, a loop over its entries or
    a table of rows built from it (``for i, r in enumerate(ratio):
    print(...)``), or a function of the script's own that prints what it is
    given: a step of a brief that asks for a print.
    """
    tree = _question_tree(source)
    if tree is None:
        return False
    carriers = _derived(tree, name)
    while True:  # loop variables and comprehension targets drawn from a carrier carry it too
        grown = set(carriers)
        for node in ast.walk(tree):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and _mentions_any(node.iter, carriers):
                grown |= {inner.id for inner in ast.walk(node.target) if isinstance(inner, ast.Name)}
        if grown == carriers:
            break
        carriers = _derived_from(tree, grown)
    return any(any(_mentions_any(argument, carriers) for argument in [*call.args, *(k.value for k in call.keywords)]) for call in _print_calls(tree))


# What shows a value to the reader: print, and its kin.
PRINTING = frozenset({"print", "pprint", "display", "write", "savetxt"})  # savetxt: np.savetxt(sys.stdout, table)


def names_float(source: str, bits: str) -> bool:
    """Whether the script names NumPy's float type of ``bits`` bits (``np.float32``, ``np.single``, ``dtype="f4"``, ``np.half``).

    A script that computes part of its answer in that type (RoPE's angles in
    float32, as Hugging Face does) carries its rounding into arrays that may
    still be float64: the judge then allows that type's rounding. Only
    NumPy's names count (``np.half``, or ``half`` imported from NumPy), and
    strings that are type codes: a variable ``half`` is the learner's own.
    """
    return _names_numpy_type(source, FLOAT_NAMES[bits], FLOAT_CODES[bits])


def names_narrow_int(source: str) -> bool:
    """Whether the script names one of NumPy's integer types of 8 or 16 bits (``np.int8``, ``dtype="uint8"``): positions
    or distances kept in one wrap round past its largest value (127 for int8, 255 for uint8)."""
    return _names_numpy_type(source, NARROW_INT_NAMES, NARROW_INT_CODES)


def _names_numpy_type(source: str, names: frozenset[str], codes: frozenset[str]) -> bool:
    """Whether the script names one of NumPy's types ``names`` (``np.half``, or ``half`` imported from NumPy), or a type
    code of ``codes`` as a string."""
    tree = _question_tree(source)
    if tree is None:
        return False
    numpy = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names if alias.name == "numpy"}
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "numpy"
        for alias in node.names
        if alias.name in names
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in names and isinstance(node.value, ast.Name) and node.value.id in numpy:
            return True
        if isinstance(node, ast.Name) and node.id in imported:
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lstrip("<>=|") in codes:
            return True
    return False


def compares_or_equal(source: str) -> bool:
    """Whether the script compares anything with ``>=`` or ``<=`` (a length check that refuses T == max_len, ``T >= wpe.shape[0]``)."""
    tree = _question_tree(source)
    return tree is not None and any(isinstance(node, ast.Compare) and any(isinstance(op, (ast.GtE, ast.LtE)) for op in node.ops) for node in ast.walk(tree))


def compares_shape_plus_number(source: str) -> bool:
    """Whether the script compares with an array's length and a number added or taken away (``T > wpe.shape[0] + 1``,
    ``len(wpe) - 1 < T``): a length check read from the table but off by that number."""
    tree = _question_tree(source)
    if tree is None:
        return False

    def length(node: ast.AST) -> bool:
        return any(
            (isinstance(inner, ast.Attribute) and inner.attr == "shape")
            or (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "len")
            for inner in ast.walk(node)
        )

    def offset(node: ast.AST) -> bool:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub))):
            return False
        number = next((side for side in (node.left, node.right) if isinstance(side, ast.Constant) and isinstance(side.value, int)), None)
        return number is not None and length(node.right if number is node.left else node.left)

    return any(isinstance(node, ast.Compare) and any(offset(side) for side in (node.left, *node.comparators)) for node in ast.walk(tree))


def prints_comparing(source: str, first: str, second: str) -> bool:
    """Whether the script prints a comparison of ``first`` with ``second`` (``np.allclose(lhs, rhs)``, ``np.abs(lhs - rhs).max()``).

    One printed expression (or an argument of a function of the script's own
    that prints) must use both names, directly or through a name computed
    from both (``gap = np.abs(lhs - rhs).max(); print(gap)``), or through a
    loop over a list that holds both (``for a, b in [(lhs, rhs), …]``): a check
    of the one against the other, not of one against itself.
    """
    tree = _question_tree(source)
    if tree is None:
        return False
    both: set[str] = set()  # names that hold a comparison of the two
    while True:
        grown = set(both)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None and _compares(node.value, first, second, both):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                grown |= {inner.id for target in targets for inner in ast.walk(target) if isinstance(inner, ast.Name)}
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and _compares(node.iter, first, second, both):
                grown |= {inner.id for inner in ast.walk(node.target) if isinstance(inner, ast.Name)}
        if grown == both:
            break
        both = grown
    return any(_compares(argument, first, second, both) for call in _print_calls(tree) for argument in [*call.args, *(k.value for k in call.keywords)]) or any(
        _compares(ast.Tuple(elts=[*call.args, *(k.value for k in call.keywords)], ctx=ast.Load()), first, second, both)
        for call in _print_calls(tree, own_only=True)
    )


def _compares(node: ast.AST, first: str, second: str, both: set[str]) -> bool:
    return (_mentions(node, first) and _mentions(node, second)) or _mentions_any(node, both)


def _print_calls(tree: ast.Module, own_only: bool = False) -> list[ast.Call]:
    """Calls of print and its kin, and of the script's own functions that print (only those, ``own_only``)."""
    own = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(isinstance(inner, ast.Call) and _called(inner) in PRINTING for inner in ast.walk(node))
    }
    printers = own if own_only else set(PRINTING) | own
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and _called(node) in printers]


def subtracts_from_itself(source: str, name: str) -> bool:
    """Whether the script takes ``name`` less something of its own (``positions - positions[0]``, ``positions - positions.min()``)."""
    tree = _question_tree(source)
    return tree is not None and any(
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _mentions(node.left, name) and _mentions(node.right, name) for node in ast.walk(tree)
    )


def divides_by_negated(source: str) -> bool:
    """Whether the script divides by a negative power or one of a name bound to one (``t / w`` where
    ``w = 10000 ** (-2i / C)``): the reciprocal of what it divides by is what its exponent meant to make."""
    tree = _question_tree(source)
    if tree is None:
        return False
    negated = {
        target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _negates(node.value) for target in node.targets if isinstance(target, ast.Name)
    }

    def negative(node: ast.expr) -> bool:
        if isinstance(node, ast.Subscript):
            return negative(node.value)
        return (isinstance(node, ast.Name) and node.id in negated) or _negates(node)

    return any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and negative(node.right) for node in ast.walk(tree))


def _negates(node: ast.expr) -> bool:
    """Whether ``node`` is a power (or an exponential) whose exponent is negated: ``10000 ** (-i / C)``, ``np.exp(-x)``."""
    exponents = [node.right] if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) else []
    if isinstance(node, ast.Call) and _called(node) in ("exp", "power") and node.args:
        exponents.append(node.args[-1])
    return any(isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.USub) for exponent in exponents for part in ast.walk(exponent))


# What a call that draws random numbers is called (NumPy's generators and their draws).
RANDOM_DRAWS = frozenset({"default_rng", "RandomState", "Generator", "seed", "standard_normal", "normal", "randn", "rand", "random", "uniform", "integers"})


def draws_random(source: str, kept: Collection[str]) -> bool:
    """Whether the script draws random numbers in code of its own (as :func:`types_number` reads it): arrays drawn
    again (``np.random.default_rng(0)``) in place of the given ones."""
    return any(isinstance(node, ast.Call) and _called(node) in RANDOM_DRAWS for statement in _own_statements(source, kept) for node in ast.walk(statement))


def drawn_into(source: str, name: str, kept: Collection[str]) -> bool:
    """Whether ``name`` is computed, in code of its own (as :func:`types_number` reads it), from random numbers the
    script draws itself: a table or a gradient drawn again (``default_rng(5).standard_normal((10, 4))``) in place of
    the given one, then looked up, or added in (``np.add.at(grad_wte, ids, g)``)."""
    own = _own_statements(source, kept)
    drawing = RANDOM_DRAWS | {
        statement.name
        for statement in own
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(isinstance(node, ast.Call) and _called(node) in RANDOM_DRAWS for node in ast.walk(statement))
    }
    writes: list[tuple[set[str], ast.expr]] = []  # the names each assignment (or ufunc.at) writes, and what it writes
    for statement in own:
        for node in ast.walk(statement):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                writes.append(({n for t in targets for n in _target_names(t)}, node.value))
            elif isinstance(node, ast.Call) and _called(node) == "at" and len(node.args) >= 3:
                writes.append((set(_target_names(node.args[0])), node.args[2]))
    carriers: set[str] = set()
    while True:
        grown = set(carriers)
        for written, value in writes:
            if _mentions_any(value, carriers) or any(isinstance(node, ast.Call) and _called(node) in drawing for node in ast.walk(value)):
                grown |= written
        if grown == carriers:
            return name in carriers
        carriers = grown


def _target_names(target: ast.expr) -> list[str]:
    """The names an assignment's target writes: ``a`` of ``a``, ``a[ids]`` and ``a.real``, each of ``a, b``."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _target_names(element)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    root = _root(target)
    return [root] if root else []


def types_given_in(source: str, given: str, place: str) -> bool:
    """Whether ``place``, a function the script defines (its body or its defaults) or a name it sets at the top level,
    writes the number that the script's top-level ``given = <number>`` sets (``10000.0`` inside ``def apply_rope`` for
    ``rope_theta = 10000.0``): that number typed in there, where ``given`` should be read."""
    tree = _question_tree(source)
    if tree is None:
        return False
    statements = [statement for body in _module_bodies(tree.body) for statement in body]
    numbers = [
        statement.value.value
        for statement in statements
        if isinstance(statement, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == given for t in statement.targets)
        and isinstance(statement.value, ast.Constant)
        and type(statement.value.value) in (int, float)
    ]
    if not numbers:
        return False
    places = [
        statement
        for statement in statements
        if (isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name == place)
        or (isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and _binds(statement, place))
    ]
    return any(
        isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value == numbers[-1]
        for statement in places
        for node in ast.walk(statement)
    )


def prints_anything(source: str) -> bool:
    """Whether the script calls print (or its kin, or a function of its own that prints) at all."""
    tree = _question_tree(source)
    return tree is not None and bool(_print_calls(tree))


def prints_self_comparison(source: str) -> bool:
    """Whether a print shows an array compared with itself (``np.allclose(lhs, lhs)``, ``lhs - lhs``): a check that can only agree."""
    tree = _question_tree(source)
    if tree is None:
        return False
    for call in _print_calls(tree):
        for node in ast.walk(call):
            pairs = [(node.left, node.right)] if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) else []
            if isinstance(node, ast.Compare) and len(node.comparators) == 1:
                pairs.append((node.left, node.comparators[0]))
            if isinstance(node, ast.Call) and len(node.args) >= 2:
                pairs.append((node.args[0], node.args[1]))
            if any(isinstance(a, ast.Name) and ast.dump(a) == ast.dump(b) for a, b in pairs):
                return True
    return False


# NumPy's names of a narrow float type, and the strings that name it as a dtype (complex64 is two float32s).
FLOAT_NAMES = {"16": frozenset({"float16", "half"}), "32": frozenset({"float32", "single", "complex64", "csingle"})}
FLOAT_CODES = {"16": frozenset({"float16", "f2"}), "32": frozenset({"float32", "f4", "complex64", "c8"})}
NARROW_INT_NAMES = frozenset({"int8", "uint8", "int16", "uint16", "byte", "ubyte", "short", "ushort"})
NARROW_INT_CODES = frozenset({"int8", "uint8", "int16", "uint16", "i1", "u1", "i2", "u2"})

# The questions a judge may ask of a script's source, by the name a contract's Question gives.
QUESTIONS: dict[str, Callable[..., bool]] = {
    "indexes_by": indexes_by,
    "typed_in": typed_in,
    "reaches_attention": reaches_attention,
    "added_to_outputs": added_to_outputs,
    "borrows": borrows,
    "calls_borrowed": calls_borrowed,
    "imports_by_name": imports_by_name,
    "augments_subscript": augments_subscript,
    "calls_with": calls_with,
    "raises": raises,
    "types_number": types_number,
    "types_whole_numbers": types_whole_numbers,
    "types_count": types_count,
    "types_numbers": types_numbers,
    "types_number_apart": types_number_apart,
    "prints": prints,
    "names_float": names_float,
    "names_narrow_int": names_narrow_int,
    "compares_or_equal": compares_or_equal,
    "compares_shape_plus_number": compares_shape_plus_number,
    "prints_comparing": prints_comparing,
    "subtracts_from_itself": subtracts_from_itself,
    "divides_by_negated": divides_by_negated,
    "draws_random": draws_random,
    "drawn_into": drawn_into,
    "types_given_in": types_given_in,
    "prints_anything": prints_anything,
    "prints_self_comparison": prints_self_comparison,
}


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
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def _insertion_point(module_body: list[ast.stmt], name: str, finished: bool = False) -> tuple[list[ast.stmt], int] | None:
    readers = _functions_reading(module_body, name)
    binds = _writes_into if finished else _binds
    for body in [*_module_bodies(module_body), *_bodies_declaring_global(module_body, name)]:
        binders = [i for i, statement in enumerate(body) if binds(statement, name)]
        if not binders:
            continue
        # a table filled through another name for the same array (``P = pe``, then ``P[:, 0::2] = …``) is filled by it too;
        # and one bound as a view of another array (``pe = pairs.reshape(T, C)``) shares it: reading that array reads the table
        aliases = {alias for statement in body[binders[0] + 1 :] if (alias := _alias_of(statement, name)) is not None} if finished else set()
        if finished:
            aliases |= {base for statement in body if (base := _viewed_by(statement, name)) is not None}
        # the last statement that fills the array, itself or through an alias: a call made for its effect before it (a
        # log of the table half built) is no use of the finished table, and with no use after it the bend comes after it
        filled = max([binders[-1], *(i for i in range(binders[0], len(body)) if any(_writes_into(body[i], alias) for alias in aliases))])
        for index in range(binders[0] + 1, len(body)):
            statement = body[index]
            if finished and (_alias_of(statement, name) or any(_writes_into(statement, alias) for alias in aliases)):
                continue
            if _reads(statement, name, readers) or any(_reads(statement, alias) for alias in aliases):
                if finished and index < filled and isinstance(statement, ast.Expr):
                    continue
                if not binds(statement, name) and not (finished and _only_checks(statement)):
                    return body, index
        return body, max(binders[-1], filled) + 1
    return None


# What returns a view of an array (its memory, another shape), called on it or, from NumPy, with it first.
VIEWING_METHODS = frozenset({"reshape", "view", "transpose", "swapaxes", "moveaxis", "squeeze", "ravel"})


def _viewed_by(statement: ast.stmt, name: str) -> str | None:
    """The array a statement binds ``name`` to a view of (``pe = pairs.reshape(T, C)``, ``pe = table[:, :C].T``,
    ``pe = np.reshape(pairs, (T, C))``), so that bending ``name`` in place bends it too; None for any other statement."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
        return None
    if statement.targets[0].id != name:
        return None
    value = statement.value
    while True:
        if isinstance(value, ast.Name):
            return value.id if value.id != name else None
        if isinstance(value, ast.Subscript) or (isinstance(value, ast.Attribute) and value.attr in ("T", "mT")):
            value = value.value
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in VIEWING_METHODS:
            numpy_function = isinstance(value.func.value, ast.Name) and value.func.value.id in ("np", "numpy")
            if numpy_function and not value.args:
                return None
            value = value.args[0] if numpy_function else value.func.value
        else:
            return None


def _alias_of(statement: ast.stmt, name: str) -> str | None:
    """The other name a statement binds to ``name``'s own array (``P = pe``); None for any other statement."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        if isinstance(statement.value, ast.Name) and statement.value.id == name and statement.targets[0].id != name:
            return statement.targets[0].id
    return None


def _after_first_binding(module_body: list[ast.stmt], name: str, arguments: Sequence[str]) -> tuple[list[ast.stmt], int] | None:
    """Just after the module first binds ``name`` and each of ``arguments`` (the names its replacement is computed
    from), in the first module-level body that binds it: where the starter gives an input, before anything else uses it."""
    for body in _module_bodies(module_body):
        binders = [i for i, statement in enumerate(body) if _binds(statement, name)]
        if not binders:
            continue
        after = [next((i for i, statement in enumerate(body) if _binds(statement, argument)), -1) for argument in arguments if argument != name]
        return body, max([binders[0], *after]) + 1
    return None


def given_kept(source: str, names: Sequence[str]) -> str:
    """``source`` with ``; name = …given(globals(), 'name', …unchanged(name))`` after the simple statement that first
    binds each of ``names`` at the top level, on that statement's own line: a copy of each input as the starter gave
    it, for the judge, and every line where it was. A name first bound otherwise (in a loop, a ``with``) gets none."""
    tree = _question_tree(source)  # only read here: the tree the run's questions were answered on
    if tree is None:
        return source
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", source)  # Python's line ends only (not str.splitlines' \f, \u2028…)
    ends: dict[tuple[int, int], list[str]] = {}
    for name in names:
        found = _after_first_binding(tree.body, name, ())
        if found is None:
            continue
        body, index = found
        statement = body[index - 1]
        if not isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)) or statement.end_lineno is None:
            continue
        ends.setdefault((statement.end_lineno, statement.end_col_offset or 0), []).append(ast.unparse(_rebinding(name, f"{UNCHANGED}({name})")))
    for (line, column), kept in sorted(ends.items(), reverse=True):
        text = lines[line - 1].encode()  # ast's columns count UTF-8 bytes
        lines[line - 1] = (text[:column] + "".join(f"; {statement}" for statement in kept).encode() + text[column:]).decode()
    return "".join(lines)


def _writes_into(statement: ast.stmt, name: str) -> bool:
    """:func:`_binds`, and a write into ``name`` anywhere in the statement: a call's ``out=`` (``np.sin(a, out=pe[:, 0::2])``)
    or a method called for its effect (``pe.append(row)`` in a loop)."""
    if _binds(statement, name):
        return True
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and any(keyword.arg == "out" and _mentions(keyword.value, name) for keyword in node.keywords):
            return True
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            function = node.value.func
            if isinstance(function, ast.Attribute) and _root(function) == name:
                return True
    return False


def _only_checks(statement: ast.stmt) -> bool:
    """An ``assert``, or a print (``print(pe.shape)``): it looks at values and sets none."""
    return isinstance(statement, ast.Assert) or (
        isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) and _called(statement.value) in PRINTING
    )


def _inside_builder(module_body: list[ast.stmt], name: str) -> tuple[list[ast.stmt], int] | None:
    """Where a function builds ``name`` as its own local and the module binds it once only, from that function's
    answer (``pe, M, shift_error = build(T, C, k)``): the point in the function's body where the name is set, found
    as at the top level. A rebinding after the module's statement would come after the function had used the name."""
    binders = [statement for body in _module_bodies(module_body) for statement in body if _binds(statement, name)]
    if len(binders) != 1 or not isinstance(binders[0], ast.Assign) or not isinstance(binders[0].value, ast.Call):
        return None
    targets = binders[0].targets
    if len(targets) != 1 or not isinstance(targets[0], ast.Tuple) or not any(isinstance(e, ast.Name) and e.id == name for e in targets[0].elts):
        return None
    function = binders[0].value.func
    definitions = [
        statement for statement in module_body if isinstance(statement, ast.FunctionDef) and isinstance(function, ast.Name) and statement.name == function.id
    ]
    if len(definitions) != 1 or any(isinstance(inner, (ast.Global, ast.Nonlocal)) for inner in ast.walk(definitions[0])):
        return None
    body = definitions[0].body
    local_binders = [i for i, statement in enumerate(body) if _binds(statement, name)]
    if not local_binders:
        return None
    for index in range(local_binders[0] + 1, len(body)):
        if _reads(body[index], name) and not _binds(body[index], name):
            return body, index
    return body, local_binders[-1] + 1


def _functions_reading(module_body: list[ast.stmt], name: str) -> frozenset[str]:
    """Module-level functions that read ``name`` when called, directly or through another of them.

    A call of one is a use of the name: the new value must be in place before
    it, not only before the name's next appearance at the top level.
    """
    functions = {
        statement.name: statement
        for body in _module_bodies(module_body)
        for statement in body
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    readers: set[str] = set()
    while True:
        found = {
            function
            for function, definition in functions.items()
            if function not in readers and any(_loads(node, name) or _calls(node, readers) for node in ast.walk(definition))
        }
        if not found:
            return frozenset(readers)
        readers |= found


def _loads(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)


def _calls(node: ast.AST, functions: set[str] | frozenset[str]) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions


def _bodies_declaring_global(module_body: list[ast.stmt], name: str) -> list[list[ast.stmt]]:
    """Bodies of functions that set ``name`` as a module global (``def main(): global pos …``)."""
    return [
        statement.body
        for body in _module_bodies(module_body)
        for statement in body
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(isinstance(inner, ast.Global) and name in inner.names for inner in statement.body)
    ]


def _binds(statement: ast.stmt, name: str) -> bool:
    """The statement gives ``name`` its value: assigns it, fills it in place, calls a method of it, or defines it."""
    if isinstance(statement, ast.If) and _is_main_guard(statement.test):
        return False  # its body is searched as a body of its own
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name == name  # `def add_positions`; a name bound inside a function is the function's own
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store) and _root(node) == name:
            return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        function = statement.value.func
        return isinstance(function, ast.Attribute) and _root(function) == name  # pos.fill(0.6)
    return False


def _reads(statement: ast.stmt, name: str, readers: frozenset[str] = frozenset()) -> bool:
    """The statement uses ``name``: reads it, or calls one of the module's functions that does (``readers``)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        # a definition reads its body's names only when called, but its decorators and defaults when it runs
        # (`def bucket(delta, num_buckets=num_buckets)` keeps the value the name has at the `def`)
        evaluated = [*statement.decorator_list, *statement.args.defaults, *(d for d in statement.args.kw_defaults if d is not None)]
        return any(_loads(node, name) or _calls(node, readers) for part in evaluated for node in ast.walk(part))
    if isinstance(statement, (ast.ClassDef, ast.Import, ast.ImportFrom)):
        return False  # a class's names are taken to be read only when it is used
    if isinstance(statement, ast.If) and _is_main_guard(statement.test):
        return any(_reads(inner, name, readers) for inner in statement.body)
    return any(_loads(node, name) or _calls(node, readers) for node in ast.walk(statement))


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(inner, ast.Name) and inner.id == name for inner in ast.walk(node))


def _mentions_any(node: ast.AST, names: Collection[str]) -> bool:
    return any(isinstance(inner, ast.Name) and inner.id in names for inner in ast.walk(node))


def _called(call: ast.Call) -> str:
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def _rebinding(name: str, call: str, local: bool = False) -> ast.stmt:
    """``name = substitutes.given(globals(), name, substitutes.function(args...))``; args are the learner's names (or
    whole numbers, as written), or None if unbound (inside a function, ``local``: its own names first); the substitutes module is
    ``__import__(SUBSTITUTES_MODULE, fromlist=["_"])``."""
    function, arguments = _call_parts(call)
    scope = "{**globals(), **locals()}" if local else "globals()"
    # a whole number is itself (the placement a rerun bends); any other argument is a name of the learner's
    looked_up = ", ".join(argument if argument.isdigit() else f"{scope}.get({argument!r})" for argument in arguments)
    module = f"__import__({SUBSTITUTES_MODULE!r}, fromlist=['_'])"
    text = f"{name} = {module}.given(globals(), {name!r}, {module}.{function}({looked_up}))"
    return ast.parse(text).body[0]
