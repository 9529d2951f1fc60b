"""The parts of the second hop (``rank/named_files.py``) on inputs written out by hand: which
names name which files, which string literals are names, and which name a question follows.
The ranking that uses them is tested on a real index in ``test_second_hop.py``."""

from __future__ import annotations

from codeagent.rank import named_files
from codeagent.rank.named_files import line_names, name_keys

PATHS = [
    "doc/messages/useless-else-on-loop/bad.py",  # 0
    "doc/messages/useless-else-on-loop/good.py",  # 1
    "tests/functional/useless_else_on_loop.py",  # 2
    "tests/functional/useless_else_on_loop.txt",  # 3
    "pkg/checkers/loops.py",  # 4
    "pkg/unreachable_after_return.py",  # 5
]


def test_a_file_is_named_by_its_stem_and_its_folder_in_either_spelling() -> None:
    keys = name_keys(PATHS)
    assert keys["useless_else_on_loop"] == [0, 1, 2, 3]
    assert keys["unreachable_after_return"] == [5]
    assert "loops" not in keys  # one word: too common a name to follow
    assert "bad" not in keys
    assert "good" not in keys


def test_a_name_of_more_files_than_the_cap_names_none() -> None:
    paths = [f"tests/case_{i}/my_helper.py" for i in range(named_files.MAX_NAMED + 1)]
    keys = name_keys(paths)
    assert "my_helper" not in keys
    assert keys["case_0"] == [0]


def test_only_string_literals_that_are_compound_names_are_read() -> None:
    line = """    "W0120": ("Else clause", 'useless-else-on-loop', "a b", unused_name, "x_y.z"),"""
    assert line_names(line) == ["useless_else_on_loop"]


CHECKER = """msgs = {
    "W0120": (
        "Else clause on loop without a break statement",
        "useless-else-on-loop",
        "Loops should only have an else clause if they can exit early.",
    ),
    "W0121": (
        "Unreachable code after a return statement",
        "unreachable-after-return",
        "Code placed after a return is never executed.",
    ),
}"""


def test_only_the_name_whose_lines_match_the_question_best_is_followed() -> None:
    keys = name_keys(PATHS)
    weights = {"claus": 1.0, "break": 1.0, "earli": 1.0, "exit": 1.0, "fire": 1.0}
    found = named_files.named_files([(4, CHECKER)], keys, weights, PATHS)
    assert found == {f: (named_files.W_NAMED, {4}) for f in (0, 1, 2)}  # .py only: not 3, 5


def test_a_tie_or_a_weak_match_follows_nothing() -> None:
    keys = name_keys(PATHS)
    tie = {"statement": 1.0}  # in the lines of both names
    assert named_files.named_files([(4, CHECKER)], keys, tie, PATHS) == {}
    weak = {"claus": 1.0, "zebra": 9.0}  # the name's lines hold a tenth of the weight
    assert named_files.named_files([(4, CHECKER)], keys, weak, PATHS) == {}


def test_a_file_is_not_lifted_by_its_own_name() -> None:
    keys = name_keys(PATHS)
    text = '"unreachable-after-return"  # code placed after a return'
    weights = {"code": 1.0, "place": 1.0}
    assert named_files.named_files([(5, text)], keys, weights, PATHS) == {}
