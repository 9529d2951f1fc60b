"""``--llm`` spec -> chat model: ``auto``, ``none``, ``ollama:MODEL``, ``llamacpp:PATH.gguf``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from codeagent.errors import ConfigError
from codeagent.llm.ollama import make_ollama_chat
from codeagent.llm.status import PROBE_TIMEOUT, probe_ollama

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


def resolve_chat_model(spec: str, settings: Settings) -> tuple[BaseChatModel | None, str]:
    """The chat model for ``spec`` and one line saying what was chosen, or why none was.

    ``auto`` never raises for a missing server or model: it returns ``(None, reason)`` and
    the CLI prints ``answers without an LLM: <reason>``. An explicit ``ollama:MODEL`` or
    ``llamacpp:PATH`` raises ``BackendUnavailableError`` / ``ModelMissingError`` /
    ``ConfigError`` instead, since the user asked for exactly that backend.
    """
    kind, arg = parse_spec(spec)
    if kind == "none":
        return None, "--llm none"
    if kind == "ollama":
        model = make_ollama_chat(arg, settings)
        return model, f"ollama:{arg} at {model.base_url}"
    if kind == "llamacpp":
        from codeagent.llm.llamacpp import make_llamacpp_chat

        chat = make_llamacpp_chat(arg, settings)
        return chat, f"llamacpp:{arg}"
    return _auto(settings)


def _auto(settings: Settings) -> tuple[BaseChatModel | None, str]:
    wanted = settings.ollama_chat_model
    status = probe_ollama(settings.ollama_host, timeout=PROBE_TIMEOUT)
    if not status.reachable:
        reason = (
            f"no Ollama server at OLLAMA_HOST={status.host} "
            f"(start `ollama serve`, or pass --llm ollama:MODEL or --llm llamacpp:PATH.gguf)"
        )
        logger.info("--llm auto: %s", reason)
        return None, reason
    if not status.has(wanted):
        reason = (
            f"the Ollama server at {status.host} does not have {wanted} "
            f"(run `ollama pull {wanted}`, or pass --llm ollama:MODEL)"
        )
        logger.info("--llm auto: %s", reason)
        return None, reason
    model = make_ollama_chat(wanted, settings, status=status)
    return model, f"ollama:{wanted} at {status.host}"


def make_chat_model(spec: str, settings: Settings) -> BaseChatModel | None:
    """The chat model for ``spec``; ``None`` means answer without an LLM (see module doc)."""
    return resolve_chat_model(spec, settings)[0]
