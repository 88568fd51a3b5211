"""A safe arithmetic evaluator for the `calculate` tool: no `eval`, only numbers, + - * /,
unary signs and parentheses, checked node by node on Python's own parse tree."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

from tau_emotion.errors import ToolError

_MAX_LENGTH = 200
_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _evaluate(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if isinstance(node.value, bool):  # True/False are ints to Python, not numbers here
            raise ToolError("only numbers are allowed in an expression")
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ToolError("division by zero")
        return _BINARY[type(node.op)](left, right)
    raise ToolError("only numbers, + - * /, and parentheses are allowed in an expression")


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression; the result is rounded to cents."""
    if len(expression) > _MAX_LENGTH:
        raise ToolError(f"the expression is longer than {_MAX_LENGTH} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError:
        raise ToolError(f"{expression!r} is not a valid arithmetic expression") from None
    value = _evaluate(tree.body)
    if not math.isfinite(value):
        raise ToolError("the result is too large")
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.2f}"
