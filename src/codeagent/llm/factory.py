"""``--llm`` spec -> chat model: ``auto``, ``none``, ``ollama:MODEL``, ``llamacpp:PATH.gguf``."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from codeagent.errors import CodeAgentError, ConfigError, ModelMissingError
from codeagent.llm.ollama import make_ollama_chat, ollama_problem
from codeagent.llm.status import PROBE_TIMEOUT, OllamaStatus, probe_ollama

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from codeagent.config import Settings

logger = logging.getLogger(__name__)

SPEC_HELP = "auto | none | ollama:MODEL | llamacpp:PATH.gguf"


def parse_spec(spec: str) -> tuple[str, str]:
    """Split a ``--llm`` value: ``"ollama:qwen2.5-coder:7b"`` -> ``("ollama", "qwen2.5-coder:7b")``.

    Accepts auto, none, ollama:MODEL and llamacpp:PATH; anything else raises ``ConfigError``.
    """
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    if kind in ("auto", "none") and not arg:
        return kind, ""
    if kind in ("ollama", "llamacpp") and arg.strip():
        return kind, arg.strip()
    raise ConfigError(f"invalid --llm value {spec!r}: expected {SPEC_HELP}")


@dataclass(frozen=True)
class Choice:
    """What a backend spec resolves to, decided before anything is constructed.

    ``resolves_to`` names the backend that will run (``"none"`` for none); ``error`` is the
    exception the real path raises when the spec cannot be honoured (``resolves_to`` is then
    ``None``); ``invalid`` marks a malformed spec. ``codeagent doctor`` shows choices; the
    real path acts on the same ones.
    """

    spec: str
    resolves_to: str | None
    reason: str
    error: CodeAgentError | None = None
    invalid: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        data = {"spec": self.spec, "resolves_to": self.resolves_to, "ok": self.ok}
        return {**data, "reason": self.reason, **({"invalid": True} if self.invalid else {})}


def failed_choice(spec: str, error: CodeAgentError, *, invalid: bool = False) -> Choice:
    return Choice(spec, None, str(error), error, invalid)


def _probe_timeout(kind: str) -> float:
    return PROBE_TIMEOUT if kind == "auto" else 3.0  # auto must not wait; explicit may


def plan_chat_model(spec: str, settings: Settings, status: OllamaStatus | None = None) -> Choice:
    """Which chat backend ``spec`` resolves to; ``status`` is an Ollama probe (made if needed).

    ``auto`` never fails: without a server or its model it resolves to ``none`` with the
    reason. An explicit ``ollama:MODEL`` or ``llamacpp:PATH`` that cannot run fails.
    """
    try:
        kind, arg = parse_spec(spec)
    except ConfigError as exc:
        return failed_choice(spec, exc, invalid=True)
    if kind == "none":
        return Choice(spec, "none", "--llm none")
    if kind == "llamacpp":
        from codeagent.llm.llamacpp import llamacpp_problem

        problem = llamacpp_problem(arg)
        if problem is not None:
            return failed_choice(spec, problem)
        return Choice(spec, f"llamacpp:{arg}", "model file present, llama-cpp-python installed")
    model = arg if kind == "ollama" else settings.ollama_chat_model
    status = status or probe_ollama(settings.ollama_host, timeout=_probe_timeout(kind))
    problem = ollama_problem(model, status)
    if problem is None:
        return Choice(spec, f"ollama:{model}", f"ollama:{model} at {status.host}")
    if kind == "ollama":
        return failed_choice(spec, problem)
    if isinstance(problem, ModelMissingError):
        reason = (
            f"the Ollama server at {status.host} does not have {model} "
            f"(run `ollama pull {model}`, or pass --llm ollama:MODEL)"
        )
    else:
        reason = (
            f"no Ollama server at OLLAMA_HOST={status.host} "
            f"(start `ollama serve`, or pass --llm ollama:MODEL or --llm llamacpp:PATH.gguf)"
        )
    logger.info("--llm auto: %s", reason)
    return Choice(spec, "none", reason)


def resolve_chat_model(spec: str, settings: Settings) -> tuple[BaseChatModel | None, str]:
    """The chat model for ``spec`` and one line saying what was chosen, or why none was.

    ``auto`` never raises for a missing server or model: it returns ``(None, reason)`` and
    the CLI prints ``answers without an LLM: <reason>``. An explicit ``ollama:MODEL`` or
    ``llamacpp:PATH`` raises ``BackendUnavailableError`` / ``ModelMissingError`` /
    ``ConfigError`` instead, since the user asked for exactly that backend.
    """
    kind, _ = parse_spec(spec)
    status = None
    if kind in ("auto", "ollama"):
        status = probe_ollama(settings.ollama_host, timeout=_probe_timeout(kind))
    choice = plan_chat_model(spec, settings, status)
    if choice.error is not None:
        raise choice.error
    backend, _, name = (choice.resolves_to or "none").partition(":")
    if backend == "ollama":
        chat = make_ollama_chat(name, settings, status=status)
        return chat, f"ollama:{name} at {chat.base_url}"
    if backend == "llamacpp":
        from codeagent.llm.llamacpp import make_llamacpp_chat

        return make_llamacpp_chat(name, settings), f"llamacpp:{name}"
    return None, choice.reason


def make_chat_model(spec: str, settings: Settings) -> BaseChatModel | None:
    """The chat model for ``spec``; ``None`` means answer without an LLM (see module doc)."""
    return resolve_chat_model(spec, settings)[0]
