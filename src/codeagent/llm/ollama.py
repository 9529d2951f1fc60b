"""The Ollama backend: a checked ``ChatOllama`` with an explicit context size and timeout.

Ollama's default context window is small (2-4k tokens) and it silently drops the start of a
longer prompt, so every request carries ``options.num_ctx`` sized for its prompt
(:func:`num_ctx_for`, :func:`with_context_size`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from codeagent.errors import BackendError, BackendUnavailableError, ModelMissingError
from codeagent.llm.status import OllamaStatus, probe_ollama

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_ollama import ChatOllama

    from codeagent.config import Settings

logger = logging.getLogger(__name__)

MIN_NUM_CTX = 2048
MAX_NUM_CTX = 32768
CHARS_PER_TOKEN = 3


def num_ctx_for(prompt_chars: int, *, reserve: int = 1024) -> int:
    """Context tokens for a prompt of ``prompt_chars`` characters plus ``reserve`` for the answer.

    Code runs about 3 characters a token; the result is a power of two in [2048, 32768].
    """
    needed = -(-max(prompt_chars, 0) // CHARS_PER_TOKEN) + max(reserve, 0)
    size = MIN_NUM_CTX
    while size < needed and size < MAX_NUM_CTX:
        size *= 2
    return size


def unreachable_message(host: str) -> str:
    return f"cannot reach Ollama at {host} — is `ollama serve` running? (set OLLAMA_HOST)"


def missing_model_message(model: str, host: str) -> str:
    return f"model '{model}' is not on the Ollama server at {host} — run `ollama pull {model}`"


def ollama_problem(model: str, status: OllamaStatus) -> BackendError | None:
    """Why ``model`` cannot be used on the probed server (unreachable, not pulled), or None."""
    if not status.reachable:
        return BackendUnavailableError(unreachable_message(status.host))
    if not status.has(model):
        return ModelMissingError(missing_model_message(model, status.host))
    return None


def check_ollama_model(model: str, host: str, *, status: OllamaStatus | None = None) -> str:
    """Raise unless the server at ``host`` answers and has ``model``; return its base URL."""
    status = status or probe_ollama(host, timeout=3.0)
    problem = ollama_problem(model, status)
    if problem is not None:
        raise problem
    return status.host


def make_ollama_chat(
    model: str,
    settings: Settings,
    *,
    status: OllamaStatus | None = None,
    timeout: float | None = None,
    num_ctx: int | None = None,
) -> ChatOllama:
    """A ``ChatOllama`` for ``model`` after checking the server has it.

    ``timeout`` (seconds, default ``settings.llm_timeout``) bounds connecting and each read,
    so a stalled stream fails instead of hanging.
    """
    if not model:
        from codeagent.errors import ConfigError

        raise ConfigError("--llm ollama:MODEL needs a model name, e.g. ollama:qwen2.5-coder:7b")
    base_url = check_ollama_model(model, settings.ollama_host, status=status)
    from langchain_ollama import ChatOllama

    return ChatOllama(
        model=model,
        base_url=base_url,
        num_ctx=num_ctx or MIN_NUM_CTX * 2,
        temperature=0.0,
        client_kwargs={"timeout": timeout or settings.llm_timeout},
    )


def with_context_size(
    model: BaseChatModel, prompt_chars: int, *, reserve: int = 1024
) -> BaseChatModel:
    """``model`` with room for a prompt of ``prompt_chars`` characters.

    For ``ChatOllama`` a copy with ``num_ctx`` set (it shares the HTTP client); other models
    (llama.cpp, whose context is fixed when the file is loaded; test fakes) come back unchanged.
    """
    if type(model).__name__ != "ChatOllama":
        return model
    return model.model_copy(update={"num_ctx": num_ctx_for(prompt_chars, reserve=reserve)})


def with_timeout(model: BaseChatModel, seconds: float) -> BaseChatModel:
    """``model`` whose calls give up after ``seconds`` (e.g. the router's shorter limit).

    ``ChatOllama`` builds its HTTP client when constructed, so this constructs a new one with
    the same settings; other models come back unchanged.
    """
    if type(model).__name__ != "ChatOllama":
        return model
    fields = {name: getattr(model, name) for name in model.model_fields_set}
    fields["client_kwargs"] = {**(getattr(model, "client_kwargs", None) or {}), "timeout": seconds}
    return type(model)(**fields)


def translate_backend_error(exc: BaseException, *, host: str | None = None) -> BackendError:
    """Turn what httpx / ollama / llama.cpp raise during a call into a one-line BackendError.

    A ``BackendError`` passes through unchanged. Use it where the agent catches a failure of
    the model mid-answer::

        try:
            for chunk in model.stream(messages): ...
        except Exception as exc:
            raise translate_backend_error(exc) from exc
    """
    if isinstance(exc, BackendError):
        return exc
    where = f" at {host}" if host else ""
    text = " ".join(str(exc).split())
    try:
        import httpx
        from ollama import ResponseError
    except ImportError:  # pragma: no cover - both are dependencies of langchain-ollama
        return BackendError(f"the model backend failed: {type(exc).__name__}: {text}")

    if isinstance(exc, ResponseError):
        status = exc.status_code
        reason = " ".join(str(exc.error).split())
        if status == 404 or "not found" in reason.lower():
            model = _quoted_model(reason)
            pull = f" — run `ollama pull {model}`" if model else " — run `ollama pull MODEL`"
            return ModelMissingError(f"Ollama{where}: {reason}{pull}")
        code = f"HTTP {status}: " if status and status > 0 else ""
        return BackendError(f"Ollama{where} returned an error: {code}{reason}")
    if isinstance(exc, httpx.TimeoutException):
        return BackendUnavailableError(
            f"Ollama{where} did not answer in time ({type(exc).__name__}); "
            "a larger model may need a longer timeout (CODEAGENT_LLM_TIMEOUT)"
        )
    if isinstance(exc, httpx.ConnectError | ConnectionError):
        return BackendUnavailableError(unreachable_message(host or "OLLAMA_HOST"))
    if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
        return BackendUnavailableError(
            f"the connection to Ollama{where} broke mid-answer ({type(exc).__name__}: {text})"
        )
    if isinstance(exc, httpx.HTTPError):
        return BackendError(f"Ollama{where} request failed: {type(exc).__name__}: {text}")
    return BackendError(f"the model backend failed: {type(exc).__name__}: {text}")


def _quoted_model(reason: str) -> str | None:
    """``model "x" not found, try pulling it first`` -> ``x``."""
    for quote in ('"', "'"):
        start = reason.find(quote)
        end = reason.find(quote, start + 1)
        if start != -1 and end > start + 1:
            return reason[start + 1 : end]
    return None
