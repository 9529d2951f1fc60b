"""Properties of the terminal sanitising (``codeagent.display``), with "control character"
defined here from the Unicode database, not from the module's patterns: category ``Cc``
(C0, DEL, C1) and the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
U+2066-U+2069). No such character survives ``safe_text`` (but tab and newline) or
``safe_name`` (none at all); text without them comes back unchanged."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from codeagent.display import safe_name, safe_text
from properties import fast

FAST = fast(60)
BIDI = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def acts_on_a_terminal(c: str) -> bool:
    return unicodedata.category(c) == "Cc" or c in BIDI


controls = st.characters(min_codepoint=0, max_codepoint=0x9F).filter(acts_on_a_terminal)
hostile = st.text(st.one_of(st.characters(), controls, st.sampled_from(sorted(BIDI))))
plain = st.text(st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters=sorted(BIDI)))


@FAST
@given(hostile)
def test_no_control_character_survives_in_text(text: str) -> None:
    shown = safe_text(text)
    assert not [c for c in shown if acts_on_a_terminal(c) and c not in "\t\n"]
    # as many lines as the text had line ends (a CRLF is one), none forged
    assert shown.count("\n") == text.replace("\r\n", "\n").count("\n")


@FAST
@given(hostile)
def test_no_control_character_survives_in_a_name(name: str) -> None:
    shown = safe_name(name)
    assert not [c for c in shown if acts_on_a_terminal(c)]
    assert (shown == name) is not any(acts_on_a_terminal(c) for c in name)


@FAST
@given(plain, st.lists(st.sampled_from(["\t", "\n"]), max_size=3))
def test_printable_text_is_unchanged(text: str, breaks: list[str]) -> None:
    text = text + "".join(breaks)
    assert safe_text(text) == text
