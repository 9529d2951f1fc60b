"""A project that opens each of its scripts with its licence header (as express and the
libraries around it do) gets a map of its code: the header says the file is the project's, not
a bundled library's (whose banner names the library's version). The truth is the repository
built here: which file is the project's and which is bundled is written down by hand."""

from __future__ import annotations

from pathlib import Path

from codeagent.repomap import build_map
from map_repos import index

HEADER = "/*!\n * framework\n * Copyright(c) 2014-2015 The Authors\n * MIT Licensed\n */\n\n"
FILES = {
    "package.json": '{"name": "framework", "main": "lib/application.js"}\n',
    "lib/application.js": HEADER + "var response = require('./response')\n\n"
    "exports.handle = function handle(req, res) {\n  return response.send(res, 'ok')\n}\n",
    "lib/response.js": HEADER + "var utils = require('./utils')\n\n"
    "exports.send = function send(res, body) {\n  res.etag = utils.etag(body)\n  return res\n}\n",
    "lib/utils.js": HEADER + "exports.etag = function etag(body) {\n  return body.length\n}\n",
    "dist/bundle.js": "// Framework v1.7.9 Copyright (c) 2024 The Authors\n"
    "(function () { var send = function send(res, body) { return res } })()\n",
}


def test_a_project_with_licence_headers_gets_its_code_in_the_map(tmp_path: Path) -> None:
    from conftest import git, write_files

    git(tmp_path, "init", "-q")
    write_files(tmp_path, FILES)
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "initial")
    store, state, entry = index(tmp_path)
    found = build_map(store, budget=512, state=state, entry=entry)
    shown = [f.path for f in found.files]
    assert {"lib/application.js", "lib/response.js", "lib/utils.js"} <= set(shown), shown
    assert "dist/bundle.js" not in shown + list(found.more)  # a bundled library's banner
