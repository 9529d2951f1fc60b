"""The rules that map an import of another language to the repository's files
(codeagent.symbols.file_imports), case by case, each expectation the language's own reading of
the import (Node/TypeScript module resolution, the Java class path, the C preprocessor's
quoted include, Go import paths, Rust's crate paths, Ruby's require_relative, PHP's PSR-4)."""

from __future__ import annotations

import pytest

from codeagent.lang.layout import Layout
from codeagent.symbols.file_imports import family, importers_index, targets
from codeagent.symbols.types import Import

JS = Layout(
    [
        "src/a.ts", "src/b.ts", "src/b.js", "src/c.js", "src/d.mts", "src/e.tsx",
        "src/dir/index.ts", "src/only/index.js", "src/types.d.ts", "index.js", "src/x.ts",
        "src/x.js", "src/decls/index.d.ts",
    ]
)  # fmt: skip


@pytest.mark.parametrize(
    ("importer", "module", "expected"),
    [
        ("src/a.ts", "./b", ["src/b.ts"]),  # .ts before .js
        ("src/a.ts", "./b.js", ["src/b.js"]),  # the file as written, when it exists
        ("src/a.ts", "./c", ["src/c.js"]),
        ("src/a.ts", "./c.js", ["src/c.js"]),
        ("src/a.ts", "./d.mjs", ["src/d.mts"]),  # .mjs written for .mts
        ("src/a.ts", "./e.jsx", ["src/e.tsx"]),  # .jsx written for .tsx
        ("src/a.ts", "./dir", ["src/dir/index.ts"]),
        ("src/a.ts", "./only", ["src/only/index.js"]),
        ("src/a.ts", "./types", ["src/types.d.ts"]),  # declarations last
        ("src/a.ts", "./types.js", ["src/types.d.ts"]),
        ("src/dir/index.ts", "../a", ["src/a.ts"]),
        ("src/dir/index.ts", "../../", ["index.js"]),  # the repository's own index
        ("src/a.ts", "./decls", ["src/decls/index.d.ts"]),
        ("src/a.ts", "../../outside", []),  # above the repository
        ("src/a.ts", "../..", []),
        ("src/a.ts", "./styles.css", []),
        ("src/a.ts", "lodash", []),  # a package
        ("src/a.ts", "@scope/pkg/x", []),
        ("src/a.ts", "./missing", []),
        ("src/a.ts", "./a", []),  # itself: not an importer of itself
    ],
)
def test_javascript_and_typescript(importer: str, module: str, expected: list[str]) -> None:
    assert targets(importer, "typescript", module, None, JS) == expected
    assert targets(importer, "javascript", module, None, JS) == expected


JAVA = Layout(
    [
        "core/src/main/java/com/acme/model/User.java",
        "core/src/main/java/com/acme/model/Role.java",
        "core/src/main/java/com/acme/model/sub/Deep.java",
        "core/src/main/java/com/acme/Util.java",
        "other/src/main/java/org/acme/model/User.java",
    ]
)


@pytest.mark.parametrize(
    ("module", "name", "expected"),
    [
        ("com.acme.model", "User", ["core/src/main/java/com/acme/model/User.java"]),
        (
            "com.acme.model",
            None,  # import com.acme.model.*: the package's files, not its subpackages'
            [
                "core/src/main/java/com/acme/model/Role.java",
                "core/src/main/java/com/acme/model/User.java",
            ],
        ),
        ("com.acme.Util", "helper", ["core/src/main/java/com/acme/Util.java"]),  # static
        ("java.util", "List", []),
        ("com.acme.model", "Nobody", []),
        # under any source root: both Users end with acme/model/User.java
        (
            "acme.model",
            "User",
            [
                "core/src/main/java/com/acme/model/User.java",
                "other/src/main/java/org/acme/model/User.java",
            ],
        ),
    ],
)
def test_java(module: str, name: str | None, expected: list[str]) -> None:
    importer = "core/src/main/java/com/acme/App.java"
    assert targets(importer, "java", module, name, JAVA) == expected


C = Layout(
    [
        "lib/buf.h", "lib/buf.c", "lib/util.h", "include/fmt/core.h", "vendor/fmt/core.h",
        "app/util.h", "include/X11/Xlib.h",
    ]
)  # fmt: skip


@pytest.mark.parametrize(
    ("importer", "module", "expected"),
    [
        ("lib/buf.c", "buf.h", ["lib/buf.h"]),  # beside the including file first
        ("app/main.c", "../lib/buf.h", ["lib/buf.h"]),
        ("app/main.c", "lib/buf.h", ["lib/buf.h"]),  # under an include folder
        ("app/main.c", "./util.h", ["app/util.h"]),
        ("app/main.c", "util.h", ["app/util.h"]),  # beside it, though lib/ has one too
        ("src/x.c", "util.h", ["app/util.h", "lib/util.h"]),  # none beside: every one
        ("src/x.cc", "../../include/fmt/core.h", ["include/fmt/core.h"]),
        ("src/x.c", "X11/Xlib.h", ["include/X11/Xlib.h"]),
        ("src/x.cc", "fmt/core.h", ["include/fmt/core.h", "vendor/fmt/core.h"]),  # every one
        ("src/x.cc", "core.h", ["include/fmt/core.h", "vendor/fmt/core.h"]),
        ("src/x.cc", "vector", []),
        ("src/x.cc", "ore.h", []),  # a path ends at a folder boundary
    ],
)
def test_c_and_cpp(importer: str, module: str, expected: list[str]) -> None:
    assert targets(importer, "c", module, None, C) == expected
    assert targets(importer, "cpp", module, None, C) == expected


GO = Layout(
    ["geo/shape.go", "geo/circle.go", "geo/sub/x.go", "x/geo/y.go", "main.go", "a/sub/z.go",
     "sub/w.go"]
)  # fmt: skip


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("example.com/proj/geo", ["geo/circle.go", "geo/shape.go"]),
        ("example.com/proj/geo/sub", ["geo/sub/x.go"]),
        ("example.com/proj/x/geo", ["x/geo/y.go"]),  # the longest folder it ends with
        ("example.com/proj/a/sub", ["a/sub/z.go"]),
        ("example.com/proj/sub", ["sub/w.go"]),
        ("fmt", []),
        ("net/http", []),
        ("example.com/proj", []),  # the module's root package: not told apart
        ("example.com/projgeo", []),  # ends with "geo" but not with "/geo"
    ],
)
def test_go(module: str, expected: list[str]) -> None:
    assert targets("cmd/main.go", "go", module, None, GO) == expected


RUST = Layout(
    [
        "crate/src/lib.rs", "crate/src/value/mod.rs", "crate/src/de.rs", "crate/src/a/b.rs",
        "other/src/de.rs", "flat/lib.rs", "flat/de.rs", "ws/src/tools/src/lib.rs",
        "ws/src/tools/src/de.rs",
    ]
)  # fmt: skip


@pytest.mark.parametrize(
    ("importer", "module", "expected"),
    [
        ("crate/src/lib.rs", "crate::value::Value", ["crate/src/value/mod.rs"]),
        ("crate/src/lib.rs", "crate::value::{Value, Map}", ["crate/src/value/mod.rs"]),
        ("crate/src/lib.rs", "crate::de", ["crate/src/de.rs"]),  # its own crate only
        ("crate/src/lib.rs", "crate::a::b::Item", ["crate/src/a/b.rs"]),
        ("crate/src/value/mod.rs", "crate::de::from_str", ["crate/src/de.rs"]),
        ("flat/lib.rs", "crate::de::X", ["flat/de.rs"]),  # a crate without src/
        ("ws/src/tools/src/lib.rs", "crate::de", ["ws/src/tools/src/de.rs"]),  # the nearest src/
        ("crate/src/lib.rs", "serde::Serialize", []),
        ("crate/src/lib.rs", "crate::missing::X", []),
    ],
)
def test_rust(importer: str, module: str, expected: list[str]) -> None:
    assert targets(importer, "rust", module, None, RUST) == expected


RUBY = Layout(["lib/a.rb", "lib/b.rb", "lib/sub/c.rb", "lib/json.rb", "test/t.rb"])


@pytest.mark.parametrize(
    ("importer", "module", "expected"),
    [
        ("lib/a.rb", "b", ["lib/b.rb"]),
        ("lib/a.rb", "b.rb", ["lib/b.rb"]),
        ("lib/a.rb", "sub/c", ["lib/sub/c.rb"]),
        ("test/t.rb", "../lib/b", ["lib/b.rb"]),
        ("test/t.rb", "json", ["lib/json.rb"]),  # require 'x': under lib/
        ("test/t.rb", "set", []),
    ],
)
def test_ruby(importer: str, module: str, expected: list[str]) -> None:
    assert targets(importer, "ruby", module, None, RUBY) == expected


PHP = Layout(["src/Models/User.php", "src/Http/Models/User.php", "src/Auth/Guard.php"])


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("App\\Http\\Models\\User", ["src/Http/Models/User.php"]),  # the longest ending
        ("App\\Models\\User", ["src/Http/Models/User.php", "src/Models/User.php"]),
        ("App\\Auth\\Guard", ["src/Auth/Guard.php"]),
        ("Vendor\\Pkg\\Thing", []),
        ("User", []),  # a class name alone names no file
    ],
)
def test_php(module: str, expected: list[str]) -> None:
    assert targets("src/Http/Ctl.php", "php", module, None, PHP) == expected


def test_csharp_namespaces() -> None:
    layout = Layout(["a/Item.cs", "a/Order.cs", "b/Program.cs"],
                    {"App.Models": {"a/Order.cs", "a/Item.cs"}})  # fmt: skip
    assert targets("b/Program.cs", "csharp", "App.Models", None, layout) == [
        "a/Item.cs",
        "a/Order.cs",
    ]
    assert targets("b/Program.cs", "csharp", "System.IO", None, layout) == []


def test_a_language_without_rules_imports_nothing() -> None:
    assert targets("a.py", "python", "os", None, Layout(["os.py"])) == []


def test_families() -> None:
    assert family("c") == family("cpp") == "c"
    assert family("javascript") == family("typescript") == "js"
    assert family("go") == "go"


def test_the_index_crosses_languages_of_one_family_only() -> None:
    files = {
        "web/a.ts": {"l": "typescript", "d": []},
        "web/b.js": {"l": "javascript", "d": []},
        "lib/x.h": {"l": "c", "d": []},
        "src/y.cc": {"l": "cpp", "d": []},
        "go/x.go": {"l": "go", "d": []},
        "j/com/acme/A.java": {"l": "java", "d": []},
        "j/com/acme/User.java": {"l": "java", "d": []},
        "j/com/acme/Role.java": {"l": "java", "d": []},
        "tool.py": {"m": "tool", "d": []},
        "cs/A.cs": {"l": "csharp", "d": [["App", "namespace", 1, 1, 9, "", "", []]]},
        "cs/B.cs": {"l": "csharp", "d": []},
    }
    imports = {
        "web/a.ts": [Import("web/a.ts", 1, "./b", None, None)],  # TS loads JS
        "src/y.cc": [Import("src/y.cc", 2, "../lib/x.h", None, None)],  # C++ includes C
        "go/x.go": [Import("go/x.go", 3, "example.com/p/web", None, None)],  # a JS folder
        "tool.py": [Import("tool.py", 1, "web", None, None)],  # Python: not here
        "cs/B.cs": [Import("cs/B.cs", 1, "App", None, None)],
        "j/com/acme/A.java": [Import("j/com/acme/A.java", 2, "com.acme", "User", None)],
    }
    index = importers_index(files, imports)
    assert {t: [(i.path, i.line) for i in found] for t, found in index.items()} == {
        "web/b.js": [("web/a.ts", 1)],
        "lib/x.h": [("src/y.cc", 2)],
        "cs/A.cs": [("cs/B.cs", 1)],
        "j/com/acme/User.java": [("j/com/acme/A.java", 2)],  # the class, not the package
    }
