"""Domain errors. The CLI turns each into one clear line and a non-zero exit.

    CodeAgentError
    ├── ConfigError            bad flag, environment variable or config file value
    ├── RepoError              the repository cannot be used
    │   ├── RepoNotFoundError      path missing, or a file where a directory was expected
    │   ├── EmptyRepoError         nothing indexable in it
    │   ├── CloneError             a remote URL could not be cloned or fetched
    │   └── GitError               a git command failed on a local repository
    ├── IndexBuildError        the index could not be built or loaded
    │   └── CacheWriteError        CODEAGENT_HOME cannot be written (missing, read-only, full)
    ├── BackendError           a model backend (embedder or LLM) cannot be used
    │   ├── BackendUnavailableError  server down, package missing
    │   └── ModelMissingError        the server answers but lacks the model
    ├── ToolError              a tool failed; the agent may fall back
    │   └── AstToolError           (see codeagent.tools.ast_tool.errors)
    ├── EvalError              a suite cannot be read or run
    └── Cancelled              long work (indexing) stopped on request (Ctrl-C)

Every error carries a message that is complete on one line: what failed and, where there
is one, what to do about it.
"""

from __future__ import annotations


class CodeAgentError(Exception):
    """Base of every error codeagent raises on purpose."""

    exit_code: int = 1


class ConfigError(CodeAgentError):
    exit_code = 2


class RepoError(CodeAgentError):
    pass


class RepoNotFoundError(RepoError):
    pass


class EmptyRepoError(RepoError):
    pass


class CloneError(RepoError):
    pass


class GitError(RepoError):
    """A git command failed; ``status`` is its exit code (None when git did not run)."""

    def __init__(self, message: str, *, status: int | None, stderr: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.stderr = stderr


class IndexBuildError(CodeAgentError):
    pass


class CacheWriteError(IndexBuildError):
    """Nothing could be written under CODEAGENT_HOME (the old index, if any, is kept)."""


class BackendError(CodeAgentError):
    pass


class BackendUnavailableError(BackendError):
    pass


class ModelMissingError(BackendError):
    pass


class ToolError(CodeAgentError):
    pass


class EvalError(CodeAgentError):
    pass


def one_line(exc: BaseException, limit: int | None = None) -> str:
    """An exception's message on one line (its type name when it has none), cut to ``limit``."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if limit is not None and len(text) > limit:
        return text[: limit - 3] + "..."
    return text


class Cancelled(CodeAgentError):
    """Work stopped because its :class:`codeagent.cancel.CancelToken` was cancelled."""

    exit_code = 130
