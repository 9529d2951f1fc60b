"""retrieve(): the code to show for a question, chosen file first: the one ranking every
search of the product uses (the agent's search tool, MCP's ``search_code`` over one
repository or several, eval).

Files are ranked by :func:`codeagent.rank.ranking.rank_files` (BM25 and dense evidence over
the whole index, the code names, paths and traceback frames of the question, a prior over
file kinds); inside each of the best files its best chunk is shown, and its second best when
that scores nearly as well; the first file shows its second and third best when they do, and
for a bug report (a long question, or one that pastes code or a traceback: ``reports`` of
:func:`~codeagent.rank.query.analyze`) whenever they hold any evidence. Neighbouring or
overlapping chunks of one file are merged into one window. Further chunks are shown among the
first :data:`SECOND_WITHIN` windows only (the code to read); past them each further file shows
its best chunk, so a larger ``k`` names more files.

The first file's further chunks are there because an issue's edited function is most often in
the first file but not its best chunk, and it scores well under that best: a chunk reading like
the report (a docstring, a similar handler) is the best one, by BM25 and more so with the
vectors. In-process, on 118 development issues of three larger repositories: a third window
(within 0.8 of the best) lifted function Acc@5 56.1 -> 59.9 (docs/eval.md, seventh round);
showing the first file's second and third chunks without that share, 68.3 -> 74.5 with the
vectors (files cited by ten windows unchanged, 93.7) and 59.9 -> 67.0 with BM25 alone (files
cited by ten windows 90.9 -> 87.9: a reference file in the ninth or tenth window left them)
(docs/eval.md, ninth round). A question in words shows them when they score that share, and
under it when they outscore the best chunk of each later file whose place among the first
windows they would take (:func:`_outscored`; those files' chunks weighed by the question's
words first): the function that does the work is often the first file's second chunk, under
a short function named for the subject (viper's ``copyAndInsensitiviseMap`` under
``toCaseInsensitiveValue``, express' ``View.resolve`` under ``View``). On 312 hand-written
how-questions of eighteen sets (in-process, BM25 alone) a function that does the work was
among the first three chunks for 67.3 -> 69.6 % and the first five for 74.0 -> 76.3 % (eight
up, one down); on SWE-QA's seven development repositories a function the reference answer
names among the first five chunks rose at flask (71.1 -> 77.8) and astropy (37.1 -> 40.0),
the others equal, and the files the first ten windows name fell 88.1 -> 87.6 (flask 93.6 ->
92.5, sqlfluff 85.9 -> 83.8: a third window of the first file takes a later file's place).
Given without the comparison, the further chunks had cost more files (flask 92.0 -> 89.6).
Kept to the questions that are not how-questions (a how-question's files unchanged) it gained
two questions and lost one (docs/eval.md, twenty-ninth round).

A how-question (ten words or more, no bug report) shows one window a file after the first: its
reference answer names files, more of them in ten windows than the second windows leave room
for. On SWE-QA how-questions of seven repositories (docs/eval.md, thirteenth round), files
cited by ten windows rose by 0 to 2.8 points of recall@10 (reflex 84.8 -> 86.2, sqlfluff
83.1 -> 85.9) and by up to 13 points within the first five windows (astropy 61.3 -> 74.6);
sympy, held out of the choice, was unchanged. The first file keeps its second and third
windows.

A question in words (not a bug report) names the work, and often the function that does it:
in each of the files shown, a chunk scores more the more of its definition's name the question
says (``Line.has_magic_trailing_comma`` for "how does it decide whether to use the magic
trailing comma?": magic, trail, comma of has, magic, trail, comma; ``Cache.write`` for "where
is the cache written?"): its score times 1 + ``NAME_WEIGHT`` x that share
(:mod:`codeagent.rank.chunk_names`; a function nested in another and longer than each piece of
it is named by the outer one's name too: twenty-eighth round). It picks the chunks inside a
file, not the files (they are ranked before). On SWE-QA how-questions of seven
development repositories (in-process, BM25 alone), a function the reference answer names was
among the first five chunks for 37.1-90.2 % of the questions with the name, 0 to 4.9 points
more than without (flask 64.4 -> 68.9, pylint 51.2 -> 56.1), files cited unchanged; a weight of
1 lost at one (pylint 29.3 -> 26.8). Given to bug reports as well it lost (SWE-bench function
Acc@5 69.6 -> 56.5 on 23 development issues): an issue names many functions, and not the one
to change (docs/eval.md, eighteenth round). A callable class's ``__call__`` is named by its class
(structlog's ``CallsiteParameterAdder.__call__`` for "how are callsite parameters … added?"),
and a stub (:func:`~codeagent.rank.idle_defs.is_stub`) is not scored up by its name: the base
class's ``AuthBase.__call__``, ``raise NotImplementedError``, does not do what it is named for
(docs/eval.md, twenty-fourth round).

Rust keeps a module's unit tests in its own file, and a test repeats the words of the code it
exercises: for a question in words that does not ask about the tests, a test a Rust file holds
(:mod:`codeagent.rank.test_chunks`) scores times :data:`TEST_CHUNK`, so the file's code is
shown first. On hand-written how-questions about two Rust repositories (``eval/rust-how.jsonl``,
a fresh ``codeagent ask`` each), a function that does the work was among the first five chunks
for 47.8 -> 56.5 % of them with BM25 alone and 56.5 -> 60.9 % with the vectors (first chunk
30.4 -> 34.8, 26.1 -> 39.1); the mined commits of eight Rust repositories kept every figure
(docs/eval.md, nineteenth round).

A question that asks how (or where) something is done wants the code that does it: in a
language with braces, a chunk that only declares (a struct's fields, an interface's method
list, a signature without a body) or does little (a body of two lines: an accessor, a
forwarding wrapper) scores times :data:`~codeagent.rank.declarations.DECLARATION` when the
file's windows are chosen, and a file that mostly declares gives up its places among the first
five (:mod:`codeagent.rank.declarations`). On 62 hand-written how-questions about seven Go,
Rust, TypeScript and Java repositories, a function that does the work was among the first
three chunks for 41.9 -> 58.1 % of them with BM25 alone and 50.0 -> 56.5 % with the vectors
(docs/eval.md, twentieth round). In Python, a class's head, an accessor, a stub, a module's
lines that only import and (unless the question asks how something prints) a ``__repr__`` score
so too (:mod:`codeagent.rank.idle_defs`; twenty-second and twenty-third rounds).

A window shows code to read: a chunk of braces alone (the ``}`` that closes a type whose
members are chunks of their own: 1-5 % of the chunks of the Rust, TypeScript and Java
repositories looked at, almost none in Go's or Python's) is never shown. It matches a question
by the path and symbol every chunk carries, and being one line long it can outscore them all
(hono's ``RegExpRouter`` question cited its closing brace first).

When the files the source-first rule keeps back come before the first five windows are filled
(a small library has fewer source files than that), the source files already shown show more of
their chunks first (:func:`codeagent.rank.windows.top_up`).

For a bug report, a later file's second chunk takes a place among the first windows only when
it scores at least as well as the best chunk of each later file that place would otherwise go
to (:func:`_outscored`): past the first file, the edited function is more often another file's
best chunk than a second one. In-process on the same 118 issues, function Acc@5 67.0 -> 69.5
with BM25 alone (WeasyPrint 55.0 -> 62.5; files cited by ten windows 87.9 -> 88.7) and 74.5 ->
76.2 with the vectors (docs/eval.md, tenth round).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from codeagent.rank import declarations, how_order, idle_defs, test_chunks
from codeagent.rank.chunk_names import by_name
from codeagent.rank.field_users import declares, field_users
from codeagent.rank.function_heads import around
from codeagent.rank.type_docs import documented_methods
from codeagent.rank.windows import add_merged, merge_hits, shown, top_up, touching
from codeagent.records import SearchHit
from codeagent.tokens import bm25_terms

if TYPE_CHECKING:
    from collections.abc import Callable

    from codeagent.rank.query import QueryAnalysis
    from codeagent.rank.ranking import Ranking
    from codeagent.store.store import IndexStore

PER_FILE = 2
FIRST_FILE = 3  # the first file's chunks, within the first SECOND_WITHIN windows
SECOND_CHUNK = 0.8  # a file's second chunk is shown when it scores this share of its best
SECOND_WITHIN = 5  # ... and when it falls among the first this many windows
FIRST_SHARE = 0.0  # the first file's further chunks: any share of its best (see _outscored)
TEST_CHUNK = 0.25  # ... and a test in a Rust source file: its score x this (not asked of tests)


def retrieve(store: IndexStore, question: str, k: int) -> list[SearchHit]:
    """The ``k`` best windows of code for ``question``: the best chunks of the best files."""
    if k <= 0:
        return []
    if not store.chunks:
        return []
    from codeagent.rank.query import analyze, asks_how, strip_noise
    from codeagent.rank.ranking import rank_files, source_first_held

    analysis = analyze(question)
    ranking = rank_files(store, question, analysis)
    terms, named = None, frozenset(analysis.identifiers)
    if not analysis.reports:  # a question in words: its chunks weighed by their names, below
        terms = frozenset(bm25_terms(strip_noise(question)))
        ranking = replace(ranking, chunk_scores=ranking.chunk_scores.copy())
    # a how-question: one window a file after the first (more files; the first keeps its three)
    how = how_order.is_how_question(question, analysis)
    doing = terms is not None and not analysis.wants_tests and asks_how(question)
    held = source_first_held(ranking.table, question, analysis)
    if doing:
        ranking = _declaring_files_after(store, ranking, question, analysis, held)
    displays = doing and not idle_defs.asks_display(question)  # a __repr__ scored down too
    merged: list[SearchHit] = []
    source: list[tuple[int, str, float]] = []  # the source files shown: rank, path, score
    scored: set[str] = set()  # the files whose chunks the question's words have weighed
    for rank, (path, score) in enumerate(ranking.files, start=1):
        if held is not None and len(merged) < SECOND_WITHIN:
            if not held(ranking.table.ids[path]):
                source.append((rank, path, score))
            else:  # a file kept back before the first windows are filled: the source ran out
                top_up(store, ranking, merged, source, SECOND_WITHIN)
        per_file = 1 if how and rank > 1 else _per_file(rank, len(merged))
        if terms is not None:  # the question's words weigh this file's chunks and the later
            # files' they are weighed against, each file once
            for ahead, _ in ranking.files[rank - 1 : rank + SECOND_WITHIN]:
                if ahead not in scored:
                    scored.add(ahead)
                    by_name(store, ranking, terms, ahead, named)
                    if not analysis.wants_tests and ahead.endswith(test_chunks.SUFFIX):
                        _tests_after(store, ranking, ahead)
                    if doing:
                        _declarations_after(store, ranking, ahead, displays, terms)
        ids = shown(store, ranking.chunks_of(path), per_file, overloads=doing)
        if not ids:
            continue
        best = float(ranking.chunk_scores[ids[0]])  # ids: best first
        share = FIRST_SHARE if rank == 1 else SECOND_CHUNK
        for n, i in enumerate(ids):
            chunk_score = float(ranking.chunk_scores[i])
            if n and (chunk_score <= 0.0 or chunk_score < share * best):
                break
            hit = SearchHit.of(store.chunks[i], score, {"file": rank})
            # weighed against the later files: a report's further chunk, file 2 on; a question in
            # words', the first file's under the share
            under = chunk_score < SECOND_CHUNK * best
            later = n > 0 and (rank > 1 if analysis.reports else rank == 1 and under)
            if later and _outscored(merged, hit, chunk_score, ranking, rank):
                break
            for j in around(store, ranking.table, path, i) if doing else []:
                hit = merge_hits(SearchHit.of(store.chunks[j], score, {"file": rank}), hit)
            add_merged(merged, hit)
        if len(merged) >= k:
            break
    return merged[:k]


def _tests_after(store: IndexStore, ranking: Ranking, path: str) -> None:
    """Score down, in place, the tests that the Rust file ``path`` holds
    (:mod:`codeagent.rank.test_chunks`), so that its code is shown before them."""
    ids = ranking.table.file_chunks[ranking.table.ids[path]]
    for i in test_chunks.tests_of(store, path, ids):
        ranking.chunk_scores[i] *= TEST_CHUNK


def _declarations_after(
    store: IndexStore, ranking: Ranking, path: str, displays: bool, terms: frozenset[str]
) -> None:
    """Score down, in place, the chunks of ``path`` that declare without doing
    or do little (:mod:`codeagent.rank.declarations`), and with ``displays`` a Python method that
    says how its object prints (:func:`~codeagent.rank.idle_defs.is_display`), so that the
    code that works is shown before them."""
    ids, scores = ranking.table.file_chunks[ranking.table.ids[path]], ranking.chunk_scores
    down = set(declarations.told_apart(store, path, ids)[0])
    if displays:
        down.update(i for i in ids if idle_defs.is_display(store.chunks[i]))
    before = {i: float(scores[i]) for i in down}
    for i in down:
        scores[i] *= declarations.DECLARATION
    declaring = {i: score for i, score in before.items() if declares(store.chunks[i])}
    if not declaring and all(store.chunks[i].symbol for i in down):
        return  # no fields declared, no window of lines that may document a type
    chunks = {i: store.chunks[i] for i in ids}  # what a field's or a type's documentation says
    users = field_users(chunks, declaring, terms, scores, down) if declaring else {}
    for i, lifted in [*users.items(), *documented_methods(chunks, down, before, scores).items()]:
        scores[i] = max(float(scores[i]), lifted)


def _declaring_files_after(
    store: IndexStore,
    ranking: Ranking,
    question: str,
    analysis: QueryAnalysis,
    held: Callable[[int], bool] | None,
) -> Ranking:
    """``ranking`` with the files that mostly declare out of its first places
    (:func:`codeagent.rank.declarations.files_after`), unless the question names them; the
    files the source-first rule keeps after those places (tests, configuration, ...) stay
    after them (``held``: :func:`~codeagent.rank.ranking.source_first_held`)."""
    from codeagent.rank.source_first import names_file

    table = ranking.table
    files = declarations.files_after(
        store,
        ranking.files,
        lambda path: table.file_chunks[table.ids[path]],
        lambda path: names_file(path, question, analysis.paths),
        lambda path: held is not None and held(table.ids[path]),
    )
    return ranking if files is ranking.files else replace(ranking, files=files)


def _per_file(rank: int, shown: int) -> int:
    """How many chunks the file at ``rank`` may show when ``shown`` windows are already shown."""
    for limit in (FIRST_FILE if rank == 1 else PER_FILE, PER_FILE):
        if shown + limit <= SECOND_WITHIN:
            return limit
    return 1


def _outscored(
    merged: list[SearchHit], hit: SearchHit, hit_score: float, ranking: Ranking, rank: int
) -> bool:
    """Whether ``hit``, a further chunk of the file at ``rank``, scoring ``hit_score``, would
    take a place among the first :data:`SECOND_WITHIN` windows from a better chunk: the best
    chunk of one of the later files that would fill the places left, one window each."""
    if any(touching(kept, hit) for kept in merged):
        return False  # it joins a window already shown: it takes no place
    places = SECOND_WITHIN - len(merged)
    return any(
        ranking.best_score(path) > hit_score for path, _ in ranking.files[rank : rank + places]
    )
