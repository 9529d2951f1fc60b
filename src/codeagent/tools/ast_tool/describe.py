"""Turn single AST nodes into text: signatures, decorator names, method roles, source snippets."""

from __future__ import annotations

import ast
import re

from codeagent.tools.ast_tool.models import Parameter, ParamKind, Role

SNIPPET_CHARS = 80
_CONSTANT = re.compile(r"_*[A-Z][A-Z0-9_]*")
_PROPERTY = frozenset({"property", "cached_property", "functools.cached_property"})
_ROLE_BY_ATTR: dict[str, Role] = {
    "setter": "property_setter",
    "getter": "property",
    "deleter": "property_deleter",
}


def unparse(node: ast.AST) -> str:
    return ast.unparse(node)


def _param(
    arg: ast.arg, kind: ParamKind, default: ast.expr | None, prefix: str = ""
) -> tuple[str, Parameter]:
    annotation = unparse(arg.annotation) if arg.annotation is not None else None
    value = unparse(default) if default is not None else None
    text = prefix + arg.arg
    if annotation is not None:
        text += f": {annotation}"
    if value is not None:
        text += f" = {value}" if annotation is not None else f"={value}"
    param = Parameter(name=arg.arg, kind=kind, annotation=annotation, default=value)
    return text, param


def signature(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[str, list[Parameter], str | None]:
    """``(a, b=1, *args, c: int = 2, **kw) -> str`` as written, its parameters, the return."""
    args = node.args
    parts: list[str] = []
    params: list[Parameter] = []
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    for index, arg in enumerate(positional):
        default = args.defaults[index - first_default] if index >= first_default else None
        kind: ParamKind = (
            "positional_only" if index < len(args.posonlyargs) else "positional_or_keyword"
        )
        text, param = _param(arg, kind, default)
        parts.append(text)
        params.append(param)
        if args.posonlyargs and index == len(args.posonlyargs) - 1:
            parts.append("/")
    if args.vararg is not None:
        text, param = _param(args.vararg, "var_positional", None, "*")
        parts.append(text)
        params.append(param)
    elif args.kwonlyargs:
        parts.append("*")
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        text, param = _param(arg, "keyword_only", kw_default)
        parts.append(text)
        params.append(param)
    if args.kwarg is not None:
        text, param = _param(args.kwarg, "var_keyword", None, "**")
        parts.append(text)
        params.append(param)
    returns = unparse(node.returns) if node.returns is not None else None
    text = "(" + ", ".join(parts) + ")" + (f" -> {returns}" if returns else "")
    return text, params, returns


def decorator_name(node: ast.expr) -> str:
    """The decorator without its call arguments: ``functools.lru_cache`` for
    ``@functools.lru_cache(maxsize=2)``."""
    target = node.func if isinstance(node, ast.Call) else node
    return unparse(target)


def is_overload(names: list[str]) -> bool:
    return any(n == "overload" or n.endswith(".overload") for n in names)


def method_role(names: list[str]) -> Role:
    """The role of a function defined in a class body, from its decorators' names."""
    for name in names:
        if name == "staticmethod":
            return "staticmethod"
        if name == "classmethod":
            return "classmethod"
        if name in _PROPERTY or name.endswith(".cached_property"):
            return "property"
        head, _, attr = name.rpartition(".")
        if head and attr in _ROLE_BY_ATTR:
            return _ROLE_BY_ATTR[attr]
    return "method"


def is_constant_name(name: str) -> bool:
    return _CONSTANT.fullmatch(name) is not None


def snippet(lines: list[str], node: ast.expr, limit: int = SNIPPET_CHARS) -> str:
    """The node's source text on one line, cut to ``limit`` characters (`` ...`` marks a cut).

    Cheap for huge literals: only the node's first source line is read.
    """
    first = lines[node.lineno - 1].encode("utf-8")
    end_line = node.end_lineno or node.lineno
    if end_line == node.lineno and node.end_col_offset is not None:
        text = first[node.col_offset : node.end_col_offset].decode("utf-8", "replace")
        cut = False
    else:
        text = first[node.col_offset :].decode("utf-8", "replace").rstrip()
        cut = True
    text = " ".join(text.split())
    if len(text) > limit:
        text, cut = text[:limit].rstrip(), True
    return text + " ..." if cut else text
