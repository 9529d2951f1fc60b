"""The letters of "e.g." in a question are no name: a file whose only match is a one-letter
global (``g``, ``e``) is not shown for it (a real index of a real repository)."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

FILES = {
    "app/globals.py": (
        "class _Globals:\n"
        "    def pop(self, name, default=None):\n"
        "        return self.__dict__.pop(name, default)\n\n\n"
        "g = _Globals()\n"
        "e = g.pop\n"
    ),
    "app/config.py": (
        "import json\n\n\n"
        "class Config(dict):\n"
        "    def from_file(self, filename, load=json.load):\n"
        '        """Update the settings from a file read with ``load``."""\n'
        "        with open(filename) as handle:\n"
        "            data = load(handle)\n"
        "        return self.from_mapping(data)\n\n"
        "    def from_mapping(self, mapping):\n"
        "        for key, value in mapping.items():\n"
        "            if key.isupper():\n"
        "                self[key] = value\n"
        "        return True\n"
    ),
    **{
        f"app/util{n}.py": f"def helper_{n}(items):\n    return [i for i in items if i]\n"
        for n in range(6)
    },
}


def test_a_one_letter_global_is_not_shown_for_the_letters_of_e_g(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    question = "how are the settings read from a file, e.g. a TOML one?"
    shown = [hit.path for hit in retrieve(store, question, 3)]
    assert shown[0] == "app/config.py", shown
    assert "app/globals.py" not in shown, shown
    plain = [hit.path for hit in retrieve(store, question.replace("e.g. ", ""), 3)]
    assert shown == plain  # the same as the question without the abbreviation
