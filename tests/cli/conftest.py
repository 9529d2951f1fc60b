"""The sample module the CLI tests ask about, with its lines numbered by hand."""

from __future__ import annotations

import pytest

# Shape 1-3 (area 2-3), Circle(Shape) 6-11 (__init__ 7-8, area 10-11), unit 14-15.
SHAPES = """\
class Shape:
    def area(self):
        raise NotImplementedError


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3.14 * self.r ** 2


def unit():
    return Circle(1)
"""


@pytest.fixture
def shapes() -> str:
    """``geo/shapes.py`` of the CLI tests' sample repositories (line numbers above)."""
    return SHAPES
