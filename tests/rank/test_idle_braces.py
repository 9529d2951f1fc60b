"""A question that asks how something is done, in a brace language, is shown the code that does
it before a file's documentation and imports, and before a type declared under attributes.

Each retrieval case is a real index of a git repository built here; which chunk does the work
is written down here by hand (the function with the body that parses), not asked of the code
under test."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.rank.declarations import is_declaration
from codeagent.rank.idle_braces import header_declares, idle_head, idle_heads
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

# A crate's documentation, long enough to be cut into two windows, says the question's words in
# every line; the function that parses says them once.
DOC = "\n".join(
    "A file type definition like `foo:*.foo` is parsed into a name and a glob."
    if n % 10 == 0
    else f"Line {n} of the module's documentation says something else entirely."
    for n in range(50)
)
TYPES = f"""\
/*!
The types module parses file type definitions.

{DOC}
*/

use std::collections::HashMap;
use crate::glob::{{Glob, GlobBuilder}};

/// A file type definition (e.g., `rust:*.rs`) as it was given.
#[derive(Clone, Debug)]
pub struct FileTypeDef {{
    name: String,
    globs: Vec<String>,
}}

pub struct Registry {{
    types: HashMap<String, FileTypeDef>,
}}

impl Registry {{
    /// Add a file type definition given as `name:glob`: it is parsed into its name and glob.
    pub fn add_def(&mut self, def: &str) -> Result<(), String> {{
        // a file type definition like `foo:*.foo` is parsed: the type's name, then its glob
        let parts: Vec<&str> = def.splitn(2, ':').collect();
        if parts.len() != 2 {{
            return Err(format!("invalid definition {{}}", def));
        }}
        let (name, glob) = (parts[0], parts[1]);
        let entry = self.types.entry(name.to_string());
        let def = entry.or_insert_with(|| FileTypeDef {{ name: name.to_string(), globs: vec![] }});
        def.globs.push(glob.to_string());
        Ok(())
    }}
}}
"""


def _chunks(path: str, text: str) -> list:
    return list(enumerate(chunk_file(path, text)))


def test_a_crate_comment_cut_into_windows_and_the_imports_are_idle() -> None:
    chunks = _chunks("src/types.rs", TYPES)
    heads = [i for i, c in chunks if c.kind == "module"]
    assert len(heads) == 2  # the comment is cut: the second window starts without its /*!
    assert "/*" not in chunks[heads[1]][1].text
    assert idle_heads(chunks) == set(heads)
    # read alone, the second window is prose outside any comment: not idle
    assert not idle_head(chunks[heads[1]][1])


# each brace language's head: comments, imports, the package, module or namespace line
HEADS = {
    "src/lib.rs": "//! The crate.\n#![allow(dead_code)]\nuse std::{fmt, io::{self, Read}};\n",
    "cmd/main.go": '// Package main runs.\npackage main\n\nimport (\n\t"fmt"\n\t"os"\n)\n',
    "src/A.java": "/* Licence. */\npackage a.b;\n\nimport java.util.List;\nimport static a.B.c;\n",
    "src/index.ts": "import { a } from './a';\nimport * as b from \"./b\";\nexport * from './c';\n",
    "src/a.c": '/* a */\n#include <stdio.h>\n#include "a.h"\n',
    "src/A.cs": "// a\nusing System;\nusing System.Collections.Generic;\nnamespace A.B;\n",
}
# ... and a line of code after it (a Java or C# file's code is in its classes)
CODE = {
    "src/lib.rs": "const LIMIT: usize = 10;\n",
    "cmd/main.go": "var x = fmt.Sprint(1)\n",
    "src/index.ts": "export const b = a + 1;\n",
    "src/a.c": "static int limit = 10;\n",
}


def _module(path: str, text: str) -> tuple[list, set[int]]:
    chunks = _chunks(path, text)
    module = {i for i, c in chunks if c.kind == "module"}
    assert module, path
    return chunks, module


def test_heads_of_each_language_are_idle() -> None:
    for path, head in HEADS.items():
        chunks, module = _module(path, head)
        assert idle_heads(chunks) >= module, path


def test_file_level_code_is_not_idle() -> None:
    for path, code in CODE.items():
        chunks, module = _module(path, HEADS[path] + "\n" + code)
        assert not idle_heads(chunks) & module, path


def test_a_line_comment_opens_no_block_comment() -> None:
    consts = "".join(f"const LIMIT_{n}: usize = {n};\n" for n in range(60))
    text = "// globs such as src/*.rs match\nuse std::fmt;\n" + consts
    chunks = _chunks("src/lib.rs", text)
    assert len([c for _, c in chunks if c.kind == "module"]) > 1  # the later windows: code
    assert not idle_heads(chunks)


def test_a_type_under_attributes_and_documentation_declares() -> None:
    structs = [c for c in chunk_file("src/types.rs", TYPES) if c.kind == "struct"]
    assert [c.symbol for c in structs] == ["FileTypeDef", "Registry"]
    # ``#[derive(Clone, Debug)]`` and the comment's "(e.g., …)" are no parameter list
    assert all(is_declaration(c, True) for c in structs)
    head = chunk_file("src/a.rs", "impl Types {\n" + "    // one\n" * 60 + "    fn f() {}\n}\n")
    assert is_declaration(head[0], True), head[0].text[:40]  # an impl's head alone


def test_a_how_question_shows_the_parser_before_the_crate_comment(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo({"src/types.rs": TYPES}), Settings.load(embed="none"))
    question = "how is a file type definition like foo:*.foo parsed?"
    shown = retrieve(store, question, 3)
    assert shown[0].symbol == "Registry", [(h.start_line, h.symbol) for h in shown]


# A C library's header documents each function in the question's words beside its prototype;
# the source file holds the function that does the work.
DICT_H = """\
/* dict.h -- the stream library's interface */
#ifndef DICT_H
#define DICT_H

#define DICT_MAX 32768  /* the largest preset dictionary */

/*
     Sets a preset dictionary for the stream. The preset dictionary is set before the first
   call; a preset dictionary set later is an error. When a preset dictionary is set, the
   stream starts with the preset dictionary's bytes as its window: set a preset dictionary
   when the data starts like the dictionary. Setting the preset dictionary twice replaces it.
*/
extern int stream_set_dictionary(stream *s, const unsigned char *dict, unsigned len);

/*
     Returns the preset dictionary the stream was set with, if a preset dictionary was set.
*/
extern int stream_get_dictionary(stream *s, unsigned char *dict, unsigned *len);

#endif
"""
DICT_C = """\
/* dict.c -- preset dictionaries */
#include "dict.h"

int stream_set_dictionary(stream *s, const unsigned char *dict, unsigned len) {
    if (s == NULL || dict == NULL || s->started)
        return -1;
    if (len > DICT_MAX) {
        dict += len - DICT_MAX;
        len = DICT_MAX;
    }
    copy_window(s->window, dict, len);
    s->check = checksum(dict, len);
    return 0;
}
"""
INLINE_H = """\
#define SQUARE(x) ((x) * (x))

static inline int clamp(int v, int low, int high) {
    return v < low ? low : v > high ? high : v;
}
"""


def test_a_header_declares_where_it_has_no_body() -> None:
    header = chunk_file("include/dict.h", DICT_H)
    assert header
    assert all(header_declares(c) for c in header), [(c.kind, c.text[:30]) for c in header]
    # the same lines in a source file are not a header's
    assert not any(header_declares(c) for c in chunk_file("src/dict.c", DICT_H))
    # an inline function and a macro with parameters are code
    inline = chunk_file("include/util.h", INLINE_H)
    assert {c.kind for c in inline} >= {"macro", "function"}
    assert not any(header_declares(c) for c in inline)


def test_a_how_question_shows_the_function_before_the_header_that_documents_it(
    git_repo: GitRepoFactory,
) -> None:
    repo = git_repo({"include/dict.h": DICT_H, "src/dict.c": DICT_C})
    store, _ = load_or_build(repo, Settings.load(embed="none"))
    shown = retrieve(store, "how is a preset dictionary set for a stream?", 3)
    assert shown[0].path == "src/dict.c", [(h.path, h.start_line) for h in shown]
    assert shown[0].symbol == "stream_set_dictionary"


def test_a_headers_windows_of_code_do_not_declare() -> None:
    from codeagent.index.chunking import window_chunks

    # a header the grammar could not read is cut into line windows: those of an inline
    # function's body are code, those of prototypes and documentation declare
    code = window_chunks("include/util.h", INLINE_H)
    assert [c.kind for c in code] == ["window"]
    assert not header_declares(code[0])
    prototypes = window_chunks("include/dict.h", DICT_H)
    assert all(c.kind == "window" for c in prototypes)
    assert all(header_declares(c) for c in prototypes)
