"""What ChatOllama sends and how its failures read, checked on the wire with the stand-in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel

from codeagent.config import Settings
from codeagent.errors import BackendError, BackendUnavailableError, ModelMissingError
from codeagent.llm import (
    make_chat_model,
    num_ctx_for,
    translate_backend_error,
    with_context_size,
    with_timeout,
)
from ollama_stub import OllamaStub


class RouteDecision(BaseModel):
    tool: str
    file: str | None = None


@pytest.fixture
def chat(stub_settings: Settings) -> BaseChatModel:
    model = make_chat_model("ollama:qwen2.5-coder:7b", stub_settings)
    assert model is not None
    return model


def failure_of(model: BaseChatModel, host: str) -> BackendError:
    with pytest.raises(Exception) as info:  # noqa: PT011 - whatever the SDK raises
        list(model.stream("question"))
    return translate_backend_error(info.value, host=host)


def test_stream_tokens_and_request(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    ollama_stub.reply("The retry loop lives in client.py.")
    messages = [SystemMessage("be brief"), HumanMessage("where is the retry loop?")]
    pieces = [chunk.content for chunk in chat.stream(messages)]
    assert "".join(str(p) for p in pieces) == "The retry loop lives in client.py."
    assert len([p for p in pieces if p]) == 6
    request = ollama_stub.chat_requests[-1]
    assert request.model == "qwen2.5-coder:7b"
    assert request.stream is True
    assert request.num_ctx == 4096
    assert request.options["temperature"] == 0.0
    assert request.format is None
    assert [m["role"] for m in request.messages] == ["system", "user"]


def test_invoke_returns_whole_text(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    ollama_stub.reply("forty two")
    assert chat.invoke("q").content == "forty two"


@pytest.mark.parametrize("chars", [100, 20_000, 80_000])
def test_with_context_size_sets_num_ctx_on_the_wire(
    chat: BaseChatModel, ollama_stub: OllamaStub, chars: int
) -> None:
    sized = with_context_size(chat, chars)
    sized.invoke("q")
    assert ollama_stub.chat_requests[-1].num_ctx == num_ctx_for(chars)
    chat.invoke("q")  # the original is unchanged
    assert ollama_stub.chat_requests[-1].num_ctx == 4096


def test_with_context_size_leaves_other_models_alone() -> None:
    from langchain_core.language_models import FakeListChatModel

    fake = FakeListChatModel(responses=["x"])
    assert with_context_size(fake, 100_000) is fake


def test_structured_output_sends_the_schema(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    ollama_stub.reply_json({"tool": "ast", "file": "src/app/models.py"})
    router = with_context_size(chat, 5000).with_structured_output(
        RouteDecision, method="json_schema"
    )
    decision = router.invoke("list the classes in models.py")
    assert decision == RouteDecision(tool="ast", file="src/app/models.py")
    request = ollama_stub.chat_requests[-1]
    assert request.format == RouteDecision.model_json_schema()
    assert request.num_ctx == num_ctx_for(5000)


def test_structured_output_invalid_json_raises_a_catchable_error(
    chat: BaseChatModel, ollama_stub: OllamaStub
) -> None:
    ollama_stub.reply("I think you should use the AST tool")
    router = chat.with_structured_output(RouteDecision, method="json_schema")
    with pytest.raises(OutputParserException):
        router.invoke("q")


def test_connection_cut_mid_answer(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    ollama_stub.drop_after(2, "one two three four")
    received: list[str] = []

    def consume() -> None:
        for chunk in chat.stream("q"):
            received.append(str(chunk.content))

    with pytest.raises(Exception) as info:  # noqa: PT011 - whatever the SDK raises
        consume()
    assert "".join(received) == "one two "
    error = translate_backend_error(info.value, host=ollama_stub.url)
    assert isinstance(error, BackendUnavailableError)
    assert str(error).startswith(f"the connection to Ollama at {ollama_stub.url} broke mid-answer")


def test_error_line_mid_stream(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    ollama_stub.error_in_stream(1, "llama runner process has terminated")
    error = failure_of(chat, ollama_stub.url)
    assert type(error) is BackendError
    assert str(error) == (
        f"Ollama at {ollama_stub.url} returned an error: llama runner process has terminated"
    )


def test_model_removed_after_start(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    ollama_stub.model_not_found()
    error = failure_of(chat, ollama_stub.url)
    assert isinstance(error, ModelMissingError)
    assert "run `ollama pull qwen2.5-coder:7b`" in str(error)


def test_server_error(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    ollama_stub.fail(500, "out of memory")
    error = failure_of(chat, ollama_stub.url)
    assert str(error) == f"Ollama at {ollama_stub.url} returned an error: HTTP 500: out of memory"


def test_server_gone_after_start(stub_settings: Settings) -> None:
    with OllamaStub(models=["qwen2.5-coder:7b"]) as stub:
        model = make_chat_model(
            "ollama:qwen2.5-coder:7b", stub_settings.model_copy(update=dict(ollama_host=stub.url))
        )
    assert model is not None
    error = failure_of(model, stub.url)
    assert isinstance(error, BackendUnavailableError)
    assert "is `ollama serve` running?" in str(error)


def test_timeout(ollama_stub: OllamaStub, stub_settings: Settings) -> None:
    model = make_chat_model(
        "ollama:qwen2.5-coder:7b", stub_settings.model_copy(update=dict(llm_timeout=0.3))
    )
    assert model is not None
    ollama_stub.delay(5.0)
    error = failure_of(model, ollama_stub.url)
    assert isinstance(error, BackendUnavailableError)
    assert "did not answer in time" in str(error)


def test_with_timeout_makes_a_shorter_client(chat: BaseChatModel, ollama_stub: OllamaStub) -> None:
    quick = with_timeout(chat, 0.3)
    assert quick.client_kwargs == {"timeout": 0.3}  # type: ignore[attr-defined]
    assert chat.client_kwargs == {"timeout": 5.0}  # type: ignore[attr-defined]
    ollama_stub.delay(5.0)
    assert "did not answer in time" in str(failure_of(quick, ollama_stub.url))
    ollama_stub.reply("fine")
    assert quick.invoke("q").content == "fine"
    assert ollama_stub.chat_requests[-1].model == "qwen2.5-coder:7b"


def test_translate_passes_backend_errors_through() -> None:
    original = ModelMissingError("x")
    assert translate_backend_error(original) is original
    other = translate_backend_error(RuntimeError("weird\nthing"))
    assert str(other) == "the model backend failed: RuntimeError: weird thing"


def test_stub_non_streaming_and_embeddings(ollama_stub: OllamaStub) -> None:
    import ollama

    client = ollama.Client(host=ollama_stub.url)
    ollama_stub.reply("whole")
    response = client.chat(model="qwen2.5-coder:7b", messages=[{"role": "user", "content": "q"}])
    assert response.message.content == "whole"
    assert response.done is True
    assert ollama_stub.chat_requests[-1].stream is False
    first = client.embed(model="nomic-embed-text", input=["a", "b"]).embeddings
    again = client.embed(model="nomic-embed-text", input="a").embeddings
    assert len(first) == 2
    assert len(first[0]) == 16
    assert first[0] == again[0]
    assert first[0] != first[1]
    assert len(client.embeddings(model="nomic-embed-text", prompt="a").embedding) == 16
    assert client.show("qwen2.5-coder:7b").capabilities == ["completion"]


def test_stub_ollama_embeddings_via_langchain(ollama_stub: OllamaStub) -> None:
    from langchain_ollama import OllamaEmbeddings

    embeddings = OllamaEmbeddings(model="nomic-embed-text", base_url=ollama_stub.url)
    vectors = embeddings.embed_documents(["def f(): pass", "class A: pass"])
    assert [len(v) for v in vectors] == [16, 16]
    body: Any = ollama_stub.requests[-1].body
    assert body["input"] == ["def f(): pass", "class A: pass"]
    assert json.dumps(body)  # recorded as parsed JSON
