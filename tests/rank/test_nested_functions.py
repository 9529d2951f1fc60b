"""A function nested in another and longer than each piece of it is the outer function's body:
a question that names the outer function is shown it (a real index of a real repository, the
chunks the chunker cuts). A short helper nested in the outer function is not lifted over the
outer function's own body."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.chunk_names import NAME_WEIGHT, by_name
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from codeagent.tokens import bm25_terms
from conftest import GitRepoFactory

DOC = "".join(
    f" * @param step{n} - one more option of the middleware to compose.\n" for n in range(12)
)
WORK = "".join(f"      const step{n} = stack.length + {n}\n" for n in range(30))
COMPOSE = (
    "/**\n"
    " * Compose middleware functions into a single function.\n"
    f"{DOC}"
    " */\n"
    "export const compose = (middleware: Handler[], onError?: ErrorHandler) => {\n"
    "  return (context: Context, last?: Next) => {\n"
    "    let index = -1\n"
    "    return dispatch(0)\n\n"
    "    async function dispatch(i: number): Promise<Context> {\n"
    "      if (i <= index) {\n"
    "        throw new Error('next() called multiple times')\n"
    "      }\n"
    "      index = i\n"
    f"{WORK}"
    "      const handler = i === middleware.length ? last : middleware[i]\n"
    "      if (!handler) {\n"
    "        return context\n"
    "      }\n"
    "      await handler(context, () => dispatch(i + 1))\n"
    "      return context\n"
    "    }\n"
    "  }\n"
    "}\n"
)
COMBINE = (
    "export const some = (...handlers: Handler[]) => {\n"
    "  return async function some(context: Context, next: Next) {\n"
    "    for (const handler of handlers) {\n"
    "      if (await handler(context, next)) {\n"
    "        return next()\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
)
QUESTION = "how does compose call the next middleware?"

BODY = "".join(f"  var status{n} = this.statusCode + {n}\n" for n in range(30)) + "".join(
    f"  var redirect{n} = this.response.statusCode + {n}\n" for n in range(10)
)
REDIRECT = (
    "res.redirect = function redirect(url) {\n"
    "  var address = url\n"
    "  var body\n"
    f"{BODY}"
    "  address = this.location(address).get('Location')\n"
    "  this.format({\n"
    "    text: function () {\n"
    "      body = response.message + '. Redirecting to ' + address\n"
    "    },\n\n"
    "    html: function () {\n"
    "      var u = escapeHtml(address)\n"
    "      body = '<p>' + response.message + '. Redirecting to ' + u + '</p>'\n"
    "    },\n\n"
    "    default: function () {\n"
    "      body = response.redirected = ''\n"
    "    }\n"
    "  })\n"
    "  this.status(status)\n"
    "  this.set('Content-Length', Buffer.byteLength(body))\n"
    "  this.end(body)\n"
    "}\n"
)
BUILDS = "how does res.redirect build the response?"


def test_a_function_nested_in_the_named_one_is_shown_as_its_body(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo({"src/compose.ts": COMPOSE, "src/combine.ts": COMBINE})
    store, _ = load_or_build(root, Settings.load(embed="none"))
    pieces = {c.symbol: c for c in store.chunks if c.path == "src/compose.ts"}
    assert "compose.dispatch" in pieces, sorted(pieces)  # the chunker cut the nested function
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("src/compose.ts")]
    assert by_score[0] == "compose"  # by its words the outer function's head is first
    shown = [(h.path, h.symbol) for h in retrieve(store, QUESTION, 3)]
    assert ("src/compose.ts", "compose.dispatch") in shown[:2], shown


def _factors(root: Path, question: str, path: str) -> dict[str, float]:
    """What :func:`by_name` multiplies each chunk of ``path`` by for ``question``, by symbol."""
    store, _ = load_or_build(root, Settings.load(embed="none"))
    ranking = rank_files(store, question, analyze(question))
    ranking = replace(ranking, chunk_scores=ranking.chunk_scores.copy())
    before = ranking.chunk_scores.copy()
    by_name(store, ranking, frozenset(bm25_terms(question)), path)
    return {
        store.chunks[i].symbol: round(float(ranking.chunk_scores[i] / before[i]), 3)
        for i in ranking.table.file_chunks[ranking.table.ids[path]]
    }


def test_a_short_helper_nested_in_the_named_function_is_not_its_body(
    git_repo: GitRepoFactory,
) -> None:
    other = "res.send = function send(body) {\n  this.end(body)\n}\n"
    root = git_repo({"lib/response.js": REDIRECT, "lib/send.js": other})
    factor = _factors(root, BUILDS, "lib/response.js")
    helpers = {s for s in factor if s.startswith("redirect.")}
    assert helpers == {"redirect.text", "redirect.html", "redirect.default"}, sorted(factor)
    assert factor["redirect"] == 1 + NAME_WEIGHT  # the function the question names
    assert {factor[s] for s in helpers} == {1.0}, factor  # its helpers are not its body


def test_the_nested_body_is_weighed_by_the_outer_functions_name(git_repo: GitRepoFactory) -> None:
    """Weighed directly: the question names ``compose`` and not ``dispatch``; the nested
    function, longer than each piece of ``compose``, is scored up as ``compose`` is."""
    root = git_repo({"src/compose.ts": COMPOSE, "src/combine.ts": COMBINE})
    factor = _factors(root, QUESTION, "src/compose.ts")
    assert factor["compose"] == 1 + NAME_WEIGHT, factor
    assert factor["compose.dispatch"] == 1 + NAME_WEIGHT, factor
