"""A small library's one module is shown before its packaging, tests and docs: when the source
files run out before the first five windows are filled, the source shows more of itself. A bug
report's first windows are not the README or the licence either.

The repository is a real git repository built here, its one source module, its tests, docs and
packaging written so that each shares the question's words; which files are source is written
down here by hand."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.retrieve import SECOND_WITHIN, retrieve
from conftest import GitRepoFactory

STEPS = "".join(
    f'''

    def step_{n}(self) -> None:
        """Move the job's next run by {n} units of its interval."""
        self.next_run = self.next_run + self.interval * {n}
'''
    for n in range(8)
)
MODULE = f'''\
import datetime


class Job:
    """A job run every interval."""

    def __init__(self, interval: int) -> None:
        self.interval = interval
        self.next_run = None
        self.last_run = None

    def schedule_next_run(self) -> None:
        """Compute the next run time of the job from its interval."""
        now = datetime.datetime.now()
        self.next_run = now + datetime.timedelta(seconds=self.interval)

    def should_run(self) -> bool:
        """Whether the job's next run time has come."""
        return datetime.datetime.now() >= self.next_run

    def run(self) -> None:
        """Run the job, then compute its next run time."""
        self.last_run = datetime.datetime.now()
        self.schedule_next_run()
{STEPS}'''
FILES = {
    "sched/__init__.py": MODULE,
    "setup.py": (
        "from setuptools import setup\n\n"
        "# run jobs: compute the next run time of a job from its interval\n"
        'setup(name="sched", description="Run a job; the next run time of a job is computed")\n'
    ),
    "pyproject.toml": (
        '[project]\nname = "sched"\n'
        'description = "Run a job at the next run time computed from its interval"\n'
    ),
    "tests/test_job.py": (
        "from sched import Job\n\n\n"
        "def test_next_run_time_of_a_job_is_computed():\n"
        "    job = Job(10)\n    job.schedule_next_run()\n    assert job.next_run is not None\n"
    ),
    "docs/usage.rst": (
        "Usage\n=====\n\nThe next run time of a job is computed from its interval when the job "
        "is run.\n"
    ),
    "README.rst": (
        "sched\n=====\n\nRun a job every interval: ``job = Job(10)``, ``job.run()``; the next "
        "run time of the job is computed when the job is run, and ``job.next_run`` says it.\n"
    ),
    "LICENSE.txt": "MIT License\n\nPermission is granted to run the job and its next run.\n",
}
SOURCE = "sched/__init__.py"


def test_the_one_module_fills_the_first_windows(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    question = "how is the next run time of a job computed?"
    shown = retrieve(store, question, 10)
    paths = [h.path for h in shown]
    assert paths[:SECOND_WITHIN] == [SOURCE] * SECOND_WITHIN, paths
    assert any("Job.schedule_next_run" in h.symbol for h in shown[:SECOND_WITHIN])
    later = set(paths[SECOND_WITHIN:])
    assert later & {"setup.py", "pyproject.toml", "tests/test_job.py", "docs/usage.rst"}, paths
    windows = [(h.start_line, h.end_line) for h in shown if h.path == SOURCE]
    for (_, end), (start, _) in zip(sorted(windows), sorted(windows)[1:], strict=False):
        assert end + 1 < start  # each window shown once: none overlaps or meets another


def test_a_question_about_the_packaging_keeps_its_order(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    shown = retrieve(store, "how does setup.py describe the package?", 10)
    assert shown[0].path == "setup.py", [h.path for h in shown]


REPORT = (
    "The next run time is not computed when a job is run with an interval of zero\n\n"
    "```python\njob = Job(0)\njob.run()\nassert job.next_run is not None\n```\n"
)


def test_a_bug_report_shows_the_module_before_the_readme_and_licence(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    shown = [h.path for h in retrieve(store, REPORT, 10)]
    assert shown[:SECOND_WITHIN] == [SOURCE] * SECOND_WITHIN, shown
    assert {"README.rst", "LICENSE.txt"} & set(shown[SECOND_WITHIN:]), shown


def test_a_report_naming_the_readme_still_finds_it(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    shown = [h.path for h in retrieve(store, "README.rst: " + REPORT, 10)]
    assert "README.rst" in shown[:SECOND_WITHIN], shown
