"""The lines of a `codeagent repl` session: read plainly from stdin when it is not a terminal,
else with prompt_toolkit's line editing and a history file that cannot end the session."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO


def read_lines(stdin: TextIO, history_file: Path | None) -> Iterator[str]:
    """The lines a user types: from ``stdin`` as they are when it is not a terminal (a
    script, a test), else from prompt_toolkit's prompt with the history kept in
    ``history_file``; Ctrl-C at the prompt clears the line, EOF ends."""
    if not stdin.isatty():
        yield from stdin
        return
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    history: Any = InMemoryHistory()
    if history_file is not None:
        try:
            history_file.parent.mkdir(parents=True, exist_ok=True)
            history = file_history(str(history_file))
        except OSError as exc:  # an unusable CODEAGENT_HOME: history for this run only
            from codeagent.cli.terminal import notice

            notice(f"history not saved: cannot write {history_file} ({exc})")
    prompt: PromptSession[str] = PromptSession(history=history)
    while True:
        try:
            yield prompt.prompt("> ")
        except KeyboardInterrupt:
            continue  # Ctrl-C at the prompt clears the line
        except EOFError:
            return


def file_history(path: str) -> Any:
    """prompt_toolkit's FileHistory, except that a history file it cannot read or write (a
    read-only or full CODEAGENT_HOME) only loses the saved history, never the session."""
    from prompt_toolkit.history import FileHistory

    class KeptHistory(FileHistory):
        def store_string(self, string: str) -> None:
            with contextlib.suppress(OSError):
                super().store_string(string)

        def load_history_strings(self) -> Iterator[str]:
            with contextlib.suppress(OSError):
                yield from super().load_history_strings()

    return KeptHistory(path)
