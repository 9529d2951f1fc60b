"""How a file path is written in text: the one pattern that the answer's citations
(``agent/answer.py``), the AST tool's file mentions (``tools/ast_tool/mentions.py``), the
question analysis (``rank/query.py``) and the eval's reference answers (``eval/metrics.py``)
read paths with.

A path is directories (``[\\w.-]+/``, any number) and a file name (``[\\w-][\\w.-]*``) with an
extension, not inside a longer word or path (no word character, ``/``, ``.`` or ``-`` just
before it). Each reader says which extensions it wants and what may follow.
"""

from __future__ import annotations

import re

BEFORE = r"(?<![\w/.-])"  # the path starts here, not inside a longer word or path
NOT_WORD_AFTER = r"(?![\w])"


def path_pattern(
    extension: str,
    *,
    lead: str = "",
    separator: str = "/",
    quoted: bool = False,
    after: str = NOT_WORD_AFTER,
) -> str:
    """The regular expression (text) of a path ending in ``.`` + ``extension`` (a regex), as
    the named group ``path`` (also group 1).

    ``lead``: what may open the path (``(?:\\./)?``); ``separator``: the directory separator
    (a regex); ``quoted``: the path may stand in backticks; ``after``: what must (not) follow.
    """
    tick = "`?" if quoted else ""
    path = rf"{lead}(?:[\w.-]+{separator})*[\w-][\w.-]*\.{extension}"
    return rf"{BEFORE}{tick}(?P<path>{path}){tick}{after}"


# A path with any short extension, not followed by more of a path: the files a question
# names (``src/app.py``, ``setup.cfg``), as the server looks them up in each repository.
FILE_PATH = re.compile(path_pattern(r"[A-Za-z0-9]{1,8}", after=r"(?![\w/])"))


def file_token(extensions: list[str]) -> re.Pattern[str]:
    """A path ending in one of ``extensions`` (without dots, any case), which may open with
    ``./`` or ``../`` and stand in backticks."""
    longest_first = sorted((re.escape(e) for e in extensions), key=len, reverse=True)
    alternatives = "|".join(longest_first) or "(?!)"
    lead = r"(?:\.{0,2}/)?"
    after = r"(?![\w/])"
    return re.compile(
        path_pattern(f"(?:{alternatives})", lead=lead, quoted=True, after=after), re.IGNORECASE
    )
