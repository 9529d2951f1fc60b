"""Which files import a file of another language than Python: a repository in ten languages
written here, each import line placed by hand, so the importers of every file are known."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.symbols.graph import SymbolGraph
from codeagent.workspace import Workspace
from conftest import GitRepoFactory, write_files

FILES = {
    "web/src/context.ts": "export class Context {}\n",
    "web/src/types.ts": "export type X = number\n",
    "web/src/util/index.ts": "export const u = 1\n",
    "web/src/app.ts": (
        "import { Context } from './context'\n"  # 1: context.ts
        "import type { X } from './types.js'\n"  # 2: types.ts (ESM writes .js)
        "import lodash from 'lodash'\n"  # 3: a package
    ),
    "web/src/main.js": "const c = require('./context')\nimport { u } from './util'\n",
    "web/src/lazy.ts": (
        "const load = () => import('./context')\n"  # 1: a dynamic import
        "import type { D } from './decl'\n"  # 2: declarations only
        "declare module './types' {\n  interface More {}\n}\n"  # 3: an augmentation
    ),
    "web/src/decl.d.ts": "export type D = string\n",
    "index.js": "module.exports = 1\n",
    "web/test/root.test.js": "const pkg = require('../../')\n",  # the repository's index
    "src/main/java/com/acme/model/User.java": "package com.acme.model;\npublic class User {}\n",
    "src/main/java/com/acme/model/Role.java": "package com.acme.model;\npublic class Role {}\n",
    "src/main/java/com/acme/App.java": (
        "package com.acme;\nimport com.acme.model.User;\npublic class App {}\n"
    ),
    "src/main/java/com/acme/All.java": (
        "package com.acme;\nimport com.acme.model.*;\npublic class All {}\n"
    ),
    "lib/buf.h": "int buf_len(void);\n",
    "lib/buf.c": '#include "buf.h"\nint buf_len(void) { return 0; }\n',
    "app/main.c": '#include "lib/buf.h"\n#include <stdio.h>\nint main(void) { return 0; }\n',
    "go/geo/shape.go": "package geo\n\ntype Shape interface{}\n",
    "go/cmd/main.go": 'package main\n\nimport "example.com/proj/go/geo"\n\nvar _ geo.Shape\n',
    "crate/src/lib.rs": "pub mod value;\nuse crate::value::Value;\n",
    "crate/src/value/mod.rs": "pub enum Value {}\n",
    "crate/src/de.rs": "use crate::value::Value;\n",
    "rb/lib/a.rb": "require_relative 'b'\n",
    "rb/lib/b.rb": "class B; end\n",
    "src/Models/User.php": "<?php\nnamespace App\\Models;\nclass User {}\n",
    "src/Http/Ctl.php": "<?php\nuse App\\Models\\User;\nclass Ctl {}\n",
    "cs/Models/Item.cs": "namespace App.Models\n{\n    class Item { }\n}\n",
    "cs/Program.cs": "using App.Models;\nclass Program { }\n",
}

IMPORTERS = {
    "web/src/context.ts": [("web/src/app.ts", 1), ("web/src/lazy.ts", 1), ("web/src/main.js", 1)],
    "web/src/types.ts": [("web/src/app.ts", 2), ("web/src/lazy.ts", 3)],
    "web/src/decl.d.ts": [("web/src/lazy.ts", 2)],
    "index.js": [("web/test/root.test.js", 1)],
    "web/src/util/index.ts": [("web/src/main.js", 2)],
    "src/main/java/com/acme/model/User.java": [
        ("src/main/java/com/acme/All.java", 2),
        ("src/main/java/com/acme/App.java", 2),
    ],
    "src/main/java/com/acme/model/Role.java": [("src/main/java/com/acme/All.java", 2)],
    "lib/buf.h": [("app/main.c", 1), ("lib/buf.c", 1)],
    "go/geo/shape.go": [("go/cmd/main.go", 3)],
    "crate/src/value/mod.rs": [("crate/src/de.rs", 1), ("crate/src/lib.rs", 2)],
    "rb/lib/b.rb": [("rb/lib/a.rb", 1)],
    "src/Models/User.php": [("src/Http/Ctl.php", 2)],
    "cs/Models/Item.cs": [("cs/Program.cs", 1)],
    "web/src/app.ts": [],  # nothing imports these
    "go/cmd/main.go": [],
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("importers")
    write_files(root, dict(FILES))
    return root


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    store, _ = load_or_build(repo, Settings.load(embed="none"), embedder=None)
    return store.symbols


@pytest.mark.parametrize(("path", "importers"), list(IMPORTERS.items()))
def test_the_importers_of_a_file(graph: SymbolGraph, path: str, importers: list) -> None:
    assert [(i.path, i.line) for i in graph.file_importers(path)] == importers


def test_asked_through_the_agent(git_repo: GitRepoFactory, tmp_path: Path) -> None:
    root = git_repo(FILES)
    agent = Workspace(root, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = agent.ask("which files import web/src/context.ts?")
    assert (result.route.tool, result.route.args["operation"]) == ("symbols", "importers")
    assert [(s.path, s.start_line) for s in result.sources] == IMPORTERS["web/src/context.ts"]
    # the statements as written, not in Python's words
    assert "import { Context } from './context'" in result.answer
    own = agent.ask("what does web/src/app.ts import?")  # the other direction, unchanged
    assert own.route.args["operation"] == "imports"
    assert [s.start_line for s in own.sources] == [1, 2, 3]
