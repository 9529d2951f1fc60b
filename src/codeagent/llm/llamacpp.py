"""The llama.cpp backend: a small LangChain chat model over ``llama_cpp.Llama``.

``llama-cpp-python`` is an optional extra (``make install-llamacpp``) and is imported only
when a ``llamacpp:PATH.gguf`` model is made.

- A GGUF with a chat template is driven through ``create_chat_completion``; one without (a
  base model) gets a plain ``System: … / User: … / Assistant:`` transcript through
  ``create_completion``, stopped before it invents the next ``User:`` turn.
- ``stream`` yields one chunk per generated token piece.
- ``with_structured_output(Schema)`` constrains sampling with a grammar built from the JSON
  schema (``LlamaGrammar.from_json_schema``) and parses the result; output that still does not
  parse (the answer hit ``max_tokens``) raises ``OutputParserException``, which the caller
  catches to fall back.
- The context size is fixed when the file is loaded (``n_ctx``), so ``with_context_size``
  leaves these models unchanged. A single instance is not safe to call from two threads.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import ConfigDict, Field, PrivateAttr

from codeagent.errors import (
    BackendError,
    BackendUnavailableError,
    CodeAgentError,
    ConfigError,
    one_line,
)

if TYPE_CHECKING:
    from langchain_core.callbacks import CallbackManagerForLLMRun
    from langchain_core.runnables import Runnable

    from codeagent.config import Settings

logger = logging.getLogger(__name__)
_LOCK_GUARD = threading.Lock()

DEFAULT_N_CTX = 8192
ROLE_NAMES = {"system": "System", "human": "User", "ai": "Assistant"}
ROLES = {"system": "system", "human": "user", "ai": "assistant"}
TRANSCRIPT_STOPS = ["\nUser:", "\nSystem:"]


class ChatLlamaCpp(BaseChatModel):
    """A chat model over a loaded ``llama_cpp.Llama``; build it with :func:`make_llamacpp_chat`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    llama: Any = Field(exclude=True, repr=False)
    model_path: str
    max_tokens: int = 512
    temperature: float = 0.0
    use_chat_template: bool = False
    _grammars: dict[str, Any] = PrivateAttr(default_factory=dict)

    @property
    def _llm_type(self) -> str:
        return "llamacpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_path": self.model_path, "temperature": self.temperature}

    # -- generation ----------------------------------------------------------------------------
    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self._lock():
            result = self._call(messages, stop, stream=False, **kwargs)
        choice = result["choices"][0]
        text = choice["message"]["content"] if self.use_chat_template else choice["text"]
        usage = result.get("usage") or {}
        message = AIMessage(
            content=text or "",
            usage_metadata={
                "input_tokens": usage.get("prompt_tokens", 0),
                "output_tokens": usage.get("completion_tokens", 0),
                "total_tokens": usage.get("total_tokens", 0),
            },
        )
        info = {"finish_reason": choice.get("finish_reason"), "model_name": self.model_path}
        return ChatResult(generations=[ChatGeneration(message=message, generation_info=info)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        with self._lock():
            yield from self._stream_locked(messages, stop, run_manager, **kwargs)

    def _stream_locked(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        run_manager: CallbackManagerForLLMRun | None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        parts = self._call(messages, stop, stream=True, **kwargs)
        try:
            for part in parts:
                choice = part["choices"][0]
                if self.use_chat_template:
                    text = (choice.get("delta") or {}).get("content") or ""
                else:
                    text = choice.get("text") or ""
                if not text:
                    continue
                chunk = ChatGenerationChunk(message=AIMessageChunk(content=text))
                if run_manager:
                    run_manager.on_llm_new_token(text, chunk=chunk)
                yield chunk
        except (ValueError, RuntimeError) as exc:
            raise BackendError(f"llama.cpp failed mid-answer: {one_line(exc)}") from exc

    def _lock(self) -> threading.Lock:
        """One lock per loaded model: llama.cpp is not thread-safe, and a router call given
        up after its timeout may still be running in its thread when the answer starts."""
        lock = getattr(self.llama, "_codeagent_lock", None)
        if lock is None:
            with _LOCK_GUARD:
                lock = getattr(self.llama, "_codeagent_lock", None)
                if lock is None:
                    lock = threading.Lock()
                    self.llama._codeagent_lock = lock
        return lock

    def _call(
        self, messages: list[BaseMessage], stop: list[str] | None, *, stream: bool, **kwargs: Any
    ) -> Any:
        schema = kwargs.pop("json_schema", None)
        params: dict[str, Any] = {
            "max_tokens": kwargs.pop("max_tokens", self.max_tokens),
            "temperature": kwargs.pop("temperature", self.temperature),
            "stream": stream,
        }
        if schema is not None:
            params["grammar"] = self._grammar(schema)
        try:
            if self.use_chat_template:
                chat = [{"role": ROLES.get(m.type, "user"), "content": m.text} for m in messages]
                return self.llama.create_chat_completion(messages=chat, stop=stop, **params)
            prompt = format_transcript(messages)
            stops = [*(stop or []), *TRANSCRIPT_STOPS]
            return self.llama.create_completion(prompt=prompt, stop=stops, **params)
        except (ValueError, RuntimeError) as exc:
            raise BackendError(f"llama.cpp failed: {one_line(exc)}") from exc

    def _grammar(self, schema: dict[str, Any]) -> Any:
        key = json.dumps(schema, sort_keys=True)
        if key not in self._grammars:
            from llama_cpp.llama_grammar import LlamaGrammar  # the package does not re-export it

            try:
                self._grammars[key] = LlamaGrammar.from_json_schema(key, verbose=False)
            except Exception as exc:  # the converter raises bare Exceptions for unsupported schemas
                raise BackendError(f"llama.cpp cannot follow this JSON schema: {exc}") from exc
        return self._grammars[key]

    # -- structured output ---------------------------------------------------------------------
    def with_structured_output(
        self,
        schema: dict[str, Any] | type,
        *,
        method: str = "json_schema",
        include_raw: bool = False,
        **kwargs: Any,
    ) -> Runnable[Any, Any]:
        """Grammar-constrained JSON parsed into ``schema`` (a pydantic class or a JSON schema).

        ``method`` is accepted for compatibility; every method uses the JSON-schema grammar.
        """
        from langchain_core.output_parsers import JsonOutputParser, PydanticOutputParser
        from pydantic import BaseModel

        parser: Any
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            json_schema = schema.model_json_schema()
            parser = PydanticOutputParser(pydantic_object=schema)
        elif isinstance(schema, dict):
            json_schema = schema
            parser = JsonOutputParser()
        else:
            raise TypeError(f"unsupported schema for structured output: {schema!r}")
        bound = self.bind(json_schema=json_schema)
        if not include_raw:
            chain: Runnable[Any, Any] = bound | parser
            return chain
        from langchain_core.runnables import RunnableMap, RunnablePassthrough

        parsed = RunnablePassthrough.assign(
            parsed=lambda d: parser.invoke(d["raw"]), parsing_error=lambda _: None
        )
        fallback = RunnablePassthrough.assign(parsed=lambda _: None)
        return RunnableMap(raw=bound) | parsed.with_fallbacks(
            [fallback], exception_key="parsing_error"
        )


def format_transcript(messages: list[BaseMessage]) -> str:
    """A plain prompt for a model without a chat template, ending with ``Assistant:``."""
    lines = [f"{ROLE_NAMES.get(m.type, 'User')}: {m.text.strip()}" for m in messages]
    return "\n".join([*lines, "Assistant:"])


def llamacpp_installed() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


def llamacpp_problem(path: str) -> CodeAgentError | None:
    """Why ``llamacpp:path`` cannot run here (missing file or package), or None."""
    if not Path(path).expanduser().is_file():
        return ConfigError(f"no such model file: {path}")
    if not llamacpp_installed():
        return BackendUnavailableError(
            "llama-cpp-python is not installed — run `make install-llamacpp`"
        )
    return None


def make_llamacpp_chat(
    path: str, settings: Settings, *, n_ctx: int = DEFAULT_N_CTX
) -> ChatLlamaCpp:
    """Load ``path`` (a .gguf file) with llama.cpp; the chat template decides the prompt format."""
    problem = llamacpp_problem(path)
    if problem is not None:
        raise problem
    model_file = Path(path).expanduser()
    from llama_cpp import Llama

    try:
        llama = Llama(model_path=str(model_file), n_ctx=n_ctx, verbose=False)
    except (ValueError, RuntimeError) as exc:
        raise BackendError(f"llama.cpp cannot load {path}: {one_line(exc)}") from exc
    template = (getattr(llama, "metadata", None) or {}).get("tokenizer.chat_template")
    logger.info("llama.cpp loaded %s (n_ctx=%d, chat template: %s)", path, n_ctx, bool(template))
    return ChatLlamaCpp(llama=llama, model_path=str(model_file), use_chat_template=bool(template))
