"""``python -m codeagent`` inside a repository never imports the repository's own packages."""

from __future__ import annotations

import subprocess
import sys

from conftest import GitRepoFactory


def test_a_package_of_a_dependency_name_in_the_repository_is_not_imported(
    git_repo: GitRepoFactory,
) -> None:
    shadow = "raise SystemExit('imported from the repository')\n"
    root = git_repo(
        {
            "click/__init__.py": shadow,  # the CLI imports click first
            "pygments/__init__.py": shadow,
            "app.py": "def handle_request(request):\n    return request\n",
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", "codeagent", "ask", "where is handle_request defined?",
         "--llm", "none", "--embed", "none", "--no-server"],
        cwd=root, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert "imported from the repository" not in done.stderr + done.stdout
    assert done.returncode == 0, done.stderr
    assert "app.py" in done.stdout
