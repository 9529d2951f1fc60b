"""File-level ranking: path kinds, module names, and the first ranker's evidence on a real
(small) index. The first ranker's order is the learned model's candidate pool and one of its
columns (``stage1``); these tests read it with the model switched off, and
``tests/rank/test_learned.py`` tests what the model does with it."""

from __future__ import annotations

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.file_roles import path_kind
from codeagent.rank.file_table import module_names
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from conftest import GitRepoFactory


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/pkg/app.py", "code"),
        ("pkg/testament.py", "code"),
        ("tests/test_app.py", "tests"),
        ("src/pkg/tests/helpers.py", "tests"),
        ("pkg/utils_test.py", "tests"),
        ("test/unittests/client/loader_test.py", "tests"),
        ("docs/conf.py", "docs"),
        ("examples/demo.py", "docs"),
        ("setup.py", "config"),
        ("setup.cfg", "config"),
        ("tox.ini", "config"),
        (".pre-commit-config.yaml", "config"),
        (".github/workflows/ci.yml", "config"),
        ("conftest.py", "config"),
        ("README.md", "other"),
        ("CHANGES.rst", "junk"),
        ("changelog/123.bugfix.rst", "junk"),
        ("src/pkg/locale/de/LC_MESSAGES/pkg.po", "junk"),
        ("pkg/static/app.min.js", "junk"),
        ("src/pkg/_vendor/six.py", "junk"),
    ],
)
def test_path_kinds(path: str, kind: str) -> None:
    assert path_kind(path) == kind


def test_module_names() -> None:
    assert module_names("src/flask/app.py") == ["src.flask.app", "flask.app", "app"]
    assert module_names("pkg/sub/__init__.py") == ["pkg.sub", "sub"]
    assert module_names("README.md") == []


FILES = {
    # defines the name the question uses
    "pkg/matrix.py": "def separability_matrix(model):\n    return _compute(model)\n\n"
    "def _compute(model):\n    return model\n",
    # uses the name over and over, defines nothing of it: BM25 alone prefers it
    "pkg/report.py": "from pkg.matrix import separability_matrix\n\n"
    "def report(models):\n"
    + "".join(f"    separability_matrix(models[{i}])  # separability matrix\n" for i in range(8)),
    "tests/test_matrix.py": "from pkg.matrix import separability_matrix\n\n"
    "def test_separability_matrix():\n"
    "    assert separability_matrix(1) == 1  # separability matrix\n",
    "pkg/net/sessions.py": "class Session:\n    def request(self, how):\n        return how\n",
    "pkg/net/adapters.py": "class Adapter:\n    def send(self, prepared):\n        raise OSError\n",
    "CHANGES.rst": "separability matrix fixed\n" * 5,
}


@pytest.fixture(autouse=True)
def first_ranker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("codeagent.rank.ranking.USE_MODEL", False)


@pytest.fixture
def store(git_repo: GitRepoFactory):  # type: ignore[no-untyped-def]
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    return store


def ranked(store, question: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [path for path, _ in rank_files(store, question, analyze(question)).files]


def test_the_defining_file_outranks_heavy_users(store) -> None:  # type: ignore[no-untyped-def]
    order = ranked(store, "`separability_matrix` gives a wrong separability matrix")
    assert order[0] == "pkg/matrix.py"
    assert order.index("pkg/report.py") < order.index("tests/test_matrix.py")
    assert order.index("tests/test_matrix.py") < order.index("CHANGES.rst")


def test_tests_rank_first_when_the_question_is_about_them(store) -> None:  # type: ignore[no-untyped-def]
    order = ranked(store, "which test checks separability_matrix?")
    assert order.index("tests/test_matrix.py") < order.index("pkg/report.py")


def test_innermost_traceback_frame_and_mentioned_module(store) -> None:  # type: ignore[no-untyped-def]
    trace = (
        'File "/venv/site-packages/pkg/net/sessions.py", line 2, in request\n'
        'File "/venv/site-packages/pkg/net/adapters.py", line 3, in send\nOSError'
    )
    assert ranked(store, trace)[0] == "pkg/net/adapters.py"
    assert ranked(store, "what does pkg.net.sessions do with a how")[0] == "pkg/net/sessions.py"
    assert ranked(store, "look at net/sessions.py please")[0] == "pkg/net/sessions.py"


def test_a_file_without_any_evidence_is_not_ranked(store) -> None:  # type: ignore[no-untyped-def]
    assert "pkg/net/adapters.py" not in ranked(store, "separability matrix")


def file_scores(store, question: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return dict(rank_files(store, question, analyze(question)).files)


def with_and_without(  # type: ignore[no-untyped-def]
    store, question: str, weight: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, float], dict[str, float]]:
    """The file scores for ``question`` as shipped, then with ``weight`` set to 0."""
    shipped = file_scores(store, question)
    monkeypatch.setattr(f"codeagent.rank.evidence.{weight}", 0.0)
    return shipped, file_scores(store, question)


def assert_lifted_just_below(  # type: ignore[no-untyped-def]
    store, question: str, weight: str, source: str, lifted: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However strong ``weight``, the ``lifted`` file stops just below its ``source``."""
    monkeypatch.setattr(f"codeagent.rank.evidence.{weight}", 50.0)
    strong = rank_files(store, question, analyze(question)).files
    assert [p for p, _ in strong[:2]] == [source, lifted]
    assert strong[1][1] < strong[0][1]


USES_FILES = {
    "pkg/dialect.py": "from pkg.grammar import Sequence\n\n\nclass SelectStatement:\n"
    '    """The select statement."""\n\n    match_grammar = Sequence("select", "from")\n',
    "pkg/grammar.py": "class Sequence:\n    def match(self, segments):\n        return segments\n",
    "pkg/keywords.py": 'SELECT = "select"\nSTATEMENT_WORDS = ["select", "statement"]\n',
    "pkg/printer.py": "def print_statement(statement):\n    print('select', statement)\n",
}


def test_the_definer_of_what_the_top_file_uses_is_lifted_below_it(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = load_or_build(git_repo(USES_FILES), Settings.load(embed="none"))
    question = "how is the select statement grammar built?"
    with_uses, without = with_and_without(store, question, "W_USES", monkeypatch)
    # pkg/dialect.py (first) calls Sequence, which pkg/grammar.py alone defines: one name,
    # one definer, so grammar.py gains W_USES x 1/1 = 0.3; the others nothing
    assert max(without, key=without.__getitem__) == "pkg/dialect.py"
    assert with_uses["pkg/grammar.py"] - without["pkg/grammar.py"] == pytest.approx(0.3)
    for path in ("pkg/dialect.py", "pkg/keywords.py", "pkg/printer.py"):
        assert with_uses[path] == without[path]
    assert_lifted_just_below(
        store, question, "W_USES", "pkg/dialect.py", "pkg/grammar.py", monkeypatch
    )


NEIGHBOUR_FILES = {
    "cli/__init__.py": "",
    "cli/formatters.py": "def format_header(title):\n"
    '    """Format the header of a lint report: the title, underlined."""\n'
    "    return title + '\\n' + '=' * len(title)\n\n\n"
    "def title_of(path):\n    return str(path)\n",
    # imports the formatter module; says "header" once
    "cli/commands.py": "from cli.formatters import title_of\n\n\ndef run(paths):\n"
    "    # one header per path\n    return [title_of(p) for p in paths]\n",
    # imports nothing, says "header" once too
    "cli/table.py": "def render(rows):\n    # one header per row\n    return rows\n",
    # imports the formatter, shares no word with the question: stays out
    "cli/plugins.py": "import cli.formatters\n\n\nHOOKS = []\n",
}


def test_an_importer_of_the_top_file_is_lifted_below_it(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = load_or_build(git_repo(NEIGHBOUR_FILES), Settings.load(embed="none"))
    question = "how is the header of the lint report formatted?"
    lifted, plain = with_and_without(store, question, "W_NEIGHBOURS", monkeypatch)
    assert max(plain, key=plain.__getitem__) == "cli/formatters.py"
    assert lifted["cli/commands.py"] > plain["cli/commands.py"]
    assert lifted["cli/table.py"] == plain["cli/table.py"]  # not an import neighbour
    assert "cli/plugins.py" not in lifted  # a neighbour without evidence is not ranked
    assert_lifted_just_below(
        store, question, "W_NEIGHBOURS", "cli/formatters.py", "cli/commands.py", monkeypatch
    )


def test_an_issue_report_lifts_no_import_neighbour(
    git_repo: GitRepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = load_or_build(git_repo(NEIGHBOUR_FILES), Settings.load(embed="none"))
    report = "The header of the lint report is formatted wrong. " + "It happens on every run. " * 15
    assert analyze(report).issue_like
    with_lift, without = with_and_without(store, report, "W_NEIGHBOURS", monkeypatch)
    assert without == with_lift
    # the same words as a short question are lifted (the weight matters there)
    short = "how is the header of the lint report formatted?"
    unlifted = file_scores(store, short)
    monkeypatch.setattr("codeagent.rank.evidence.W_NEIGHBOURS", 0.2)
    assert file_scores(store, short) != unlifted


def with_and_without_prior(  # type: ignore[no-untyped-def]
    store, question: str, prior: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, float], dict[str, float]]:
    """The file scores for ``question`` as shipped, then with the prior constant ``prior`` 0
    (the first ranker's scores: build files are not moved out of the first places here)."""
    monkeypatch.setattr("codeagent.rank.ranking.SOURCE_FIRST", False)
    shipped = file_scores(store, question)
    monkeypatch.setattr(f"codeagent.rank.first_ranker.{prior}", 0.0)
    return shipped, file_scores(store, question)


# The design's priors (docs/index.md): a test file -0.35, a changelog -1.0, both doubled for an
# issue report; a question about tests takes the tests' prior away. Written out here, not read
# from the code under test.
PRIORS = {"PRIOR_TESTS": ("tests/test_matrix.py", -0.35), "PRIOR_JUNK": ("CHANGES.rst", -1.0)}
PLAIN = "`separability_matrix` gives a wrong separability matrix"
ABOUT_TESTS = "which test checks separability_matrix?"
REPORT = (
    "`separability_matrix` gives a wrong separability matrix for nested models. "
    + "It happens whenever the models are nested more than one level deep. " * 8
)


@pytest.mark.parametrize("prior", sorted(PRIORS))
def test_a_prior_moves_its_files_by_exactly_its_value(  # type: ignore[no-untyped-def]
    store, prior: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, value = PRIORS[prior]
    analysis = analyze(PLAIN)
    assert not analysis.issue_like
    assert not analysis.wants_tests
    shipped, without = with_and_without_prior(store, PLAIN, prior, monkeypatch)
    assert shipped[path] - without[path] == pytest.approx(value)
    for other in set(shipped) - {path}:
        assert shipped[other] == pytest.approx(without[other]), other


def test_a_question_about_tests_takes_the_tests_prior_away(  # type: ignore[no-untyped-def]
    store, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert analyze(ABOUT_TESTS).wants_tests
    shipped, without = with_and_without_prior(store, ABOUT_TESTS, "PRIOR_TESTS", monkeypatch)
    assert shipped["tests/test_matrix.py"] == pytest.approx(without["tests/test_matrix.py"])


@pytest.mark.parametrize("prior", sorted(PRIORS))
def test_an_issue_report_doubles_the_prior(  # type: ignore[no-untyped-def]
    store, prior: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, value = PRIORS[prior]
    analysis = analyze(REPORT)
    assert analysis.issue_like
    assert not analysis.wants_tests  # "test" is not asked about in a report
    shipped, without = with_and_without_prior(store, REPORT, prior, monkeypatch)
    assert shipped[path] - without[path] == pytest.approx(2 * value)
