"""A question how the code works is answered from the code: tests, examples and READMEs give
their places among the first five files to source files, unless the question asks how to use
it, names a test or a file, or asks about the tests or the docs.

Each case is a fresh ``codeagent ask --json`` process on a real git repository built here, laid
out as a JavaScript web framework is (``lib/``, ``test/`` with a file per API named after it,
``examples/``, a README): its tests and examples repeat the question's words far more often
than the function that does the work. Which files are tests, examples or docs is written down
here by hand, from their paths, not asked of the code under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.rank.test_source_first import _ranked_files

from codeagent.rank.query import asks_workings

HELD = {
    "test/res.send.js",
    "test/res.json.js",
    "examples/content-type/index.js",
    "examples/etag/index.js",
    "Readme.md",
}
CODE = {"lib/response.js", "lib/request.js", "lib/utils.js", "lib/application.js"}


def _test_file(api: str) -> str:
    return (
        f"var request = require('supertest')\n\ndescribe('{api}', function () {{\n"
        + "".join(
            f"  it('should set the content type and the etag {i}', function (done) {{\n"
            f"    app.use(function (req, res) {{ {api}('content type etag {i}') }})\n"
            f"    request(app).get('/').expect('Content-Type', /html/).expect('ETag', /W/, done)\n"
            "  })\n"
            for i in range(8)
        )
        + "})\n"
    )


def _example(name: str) -> str:
    return "var express = require('../../')\nvar app = express()\n\n" + "".join(
        f"app.get('/{name}{i}', function (req, res) {{\n"
        f"  // res.send sets the content type and the etag of {name}\n"
        f"  res.send('content type etag {i}')\n}})\n"
        for i in range(6)
    )


FILES = {
    "package.json": '{"name": "framework", "main": "index.js"}\n',
    "index.js": "module.exports = require('./lib/application')\n",
    "Readme.md": "# framework\n\n"
    + "".join(f"- `res.send` sets the content type and the etag ({i})\n" for i in range(8)),
    "lib/response.js": "var utils = require('./utils')\nvar res = module.exports = {}\n\n"
    "res.send = function send(body) {\n"
    "  var chunk = body\n"
    "  var type = this.get('Content-Type')\n"
    "  if (typeof chunk === 'string' && !type) {\n"
    "    this.set('Content-Type', 'text/html')\n"
    "  }\n"
    "  var etag = utils.etag(chunk)\n"
    "  if (etag && !this.get('ETag')) {\n"
    "    this.set('ETag', etag)\n"
    "  }\n"
    "  this.end(chunk)\n"
    "  return this\n"
    "}\n\n"
    + "".join(
        f"res.{name} = function {name}(value) {{\n"
        f"  var header = this.get('X-{name}')\n"
        f"  this.{name}Value = value || header\n"
        "  return this\n"
        "}\n\n"
        for name in (
            "status",
            "links",
            "location",
            "vary",
            "append",
            "attachment",
            "cookie",
            "clearCookie",
            "redirect",
            "render",
            "format",
            "download",
            "sendStatus",
        )
    )
    + "res.json = function json(obj) {\n"
    "  var body = JSON.stringify(obj)\n"
    "  if (!this.get('Content-Type')) {\n"
    "    this.set('Content-Type', 'application/json')\n"
    "  }\n"
    "  return this.send(body)\n"
    "}\n",
    "lib/request.js": "var req = module.exports = {}\n\n"
    "req.get = function header(name) {\n"
    "  var lc = name.toLowerCase()\n"
    "  return this.headers[lc]\n"
    "}\n",
    "lib/utils.js": "var crypto = require('crypto')\n\n"
    "exports.etag = function etag(body) {\n"
    "  var hash = crypto.createHash('sha1').update(body).digest('base64')\n"
    "  return 'W/\"' + hash.slice(0, 27) + '\"'\n"
    "}\n",
    "lib/application.js": "var app = module.exports = {}\n\n"
    "app.set = function set(setting, val) {\n"
    "  this.settings[setting] = val\n"
    "  return this\n"
    "}\n",
    "test/res.send.js": _test_file("res.send"),
    "test/res.json.js": _test_file("res.json"),
    "examples/content-type/index.js": _example("content-type"),
    "examples/etag/index.js": _example("etag"),
}


@pytest.fixture
def framework(git_repo) -> Path:
    return git_repo(FILES)


def test_a_question_how_the_code_works_gets_the_code_first(framework: Path) -> None:
    files = _ranked_files(framework, "how does res.send set the content type and the etag?")
    assert files[0] == "lib/response.js", files
    first = [p for p in files if p in CODE or p in HELD]
    shown_code = [p for p in first if p in CODE]
    # every source file shown comes before every test, example and README
    assert first[: len(shown_code)] == shown_code, files
    assert HELD & set(files), files  # they are still there, after the code


def test_a_question_how_to_use_it_keeps_its_tests_and_examples(framework: Path) -> None:
    files = _ranked_files(framework, "how do I set the content type and the etag with res.send?")
    assert HELD & set(files[:3]), files


def test_a_request_to_explain_how_it_works_gets_the_code_first(framework: Path) -> None:
    files = _ranked_files(framework, "explain how res.send sets the content type and the etag")
    first = [p for p in files if p in CODE or p in HELD]
    shown_code = [p for p in first if p in CODE]
    assert shown_code, files
    assert first[: len(shown_code)] == shown_code, files


def test_a_question_naming_a_test_keeps_it(framework: Path) -> None:
    files = _ranked_files(framework, "where does test_send_etag check the content type and etag?")
    assert HELD & set(files[:3]), files


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how does res.send set the content type?", True),
        ("where is the cache written?", True),
        ("How are flags that must be used together checked?", True),
        ("How do I add a route?", False),
        ("how to configure the cache?", False),
        ("how can we stop a running server?", False),
        ("how is apply_coupon used on a Cart?", False),
        ("where is an example of a plugin?", False),
        ("Where does TestIsValidCIDR.test_invalid branch on its value?", False),
        ("what does res.send do?", False),
        ("why does res.send set an etag?", False),
        # the same asked as a request
        ("explain how res.send sets the content type", True),
        ("Can you show me where the cache is written?", True),
        ("please describe how flags are checked", True),
        ("explain how to configure the cache", False),
        ("explain the cache", False),
        # what the code does when something happens
        ("what happens when a table is dropped?", True),
        ("What happens if the lock file is deleted while held?", True),
        ("what happened in the last release?", False),
        # after a clause that sets the scene
        ("when loading, how does an unquoted null become a null node?", True),
        ("If the clocks spring forward, how is the missing hour detected?", True),
        ("rounding half-even: how are exact ties resolved?", True),
        ("When I start the app, how do I add a route?", False),
        ("why does the server, when idle, close its sockets?", False),
    ],
)
def test_what_asks_how_the_code_works(question: str, expected: bool) -> None:
    assert asks_workings(question) is expected
