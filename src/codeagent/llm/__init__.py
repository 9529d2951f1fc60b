"""Chat backends: Ollama, llama.cpp, or none. The only package that imports their SDKs.

Importing this package is cheap: ``langchain_ollama``, ``llama_cpp`` and ``httpx`` are imported
inside the functions that use them.

    make_chat_model(spec, settings)       -> BaseChatModel | None
    resolve_chat_model(spec, settings)    -> (model | None, one-line reason)
    plan_chat_model(spec, settings, probe) -> Choice (what spec resolves to; nothing built)
    num_ctx_for(prompt_chars)             -> context tokens for a prompt
    with_context_size(model, prompt_chars) -> model whose requests carry that num_ctx
    with_timeout(model, seconds)          -> model whose calls give up sooner (the router)
    translate_backend_error(exc)          -> BackendError with a one-line message
    probe_ollama(host)                    -> OllamaStatus (reachable, version, models)
"""

from __future__ import annotations

from codeagent.llm.factory import (
    Choice,
    make_chat_model,
    parse_spec,
    plan_chat_model,
    resolve_chat_model,
)
from codeagent.llm.ollama import (
    num_ctx_for,
    translate_backend_error,
    with_context_size,
    with_timeout,
)
from codeagent.llm.status import OllamaStatus, normalize_host, probe_ollama

__all__ = [
    "Choice",
    "OllamaStatus",
    "make_chat_model",
    "normalize_host",
    "num_ctx_for",
    "parse_spec",
    "plan_chat_model",
    "probe_ollama",
    "resolve_chat_model",
    "translate_backend_error",
    "with_context_size",
    "with_timeout",
]
