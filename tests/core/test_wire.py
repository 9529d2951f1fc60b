"""The wire: every typed event of an answer written as JSON and read back by the client's
stdlib decoder has the same fields and values. Truth: the pydantic models of
:mod:`codeagent.events` (their fields and their own ``to_json()``)."""

from __future__ import annotations

import json
import typing

import pytest

from codeagent import events, wire
from codeagent.result import AskResult, Source
from codeagent.route import Fallback, RouteDecision

MODELS = typing.get_args(events.Event)


def test_the_decoder_knows_every_event_and_its_fields() -> None:
    declared = {
        model.model_fields["type"].default: set(model.model_fields) - {"type"} for model in MODELS
    }
    assert declared == {kind: set(fields) for kind, fields in wire.FIELDS.items()}


def test_the_error_kinds_are_the_events() -> None:
    assert set(wire.ERROR_KINDS) == set(typing.get_args(events.ErrorKind))


SOURCE = Source(path="src/x.py", start_line=3, end_line=9, score=0.5)
ROUTE = RouteDecision(tool="rag", args={"query": "retry"}, reason="search")
SAMPLES = [
    events.RouteEvent(
        route=ROUTE, fallback=Fallback(from_="ast", to="rag", reason="no file"), line="x"
    ),
    events.NoticeEvent(kind="index", text="updating"),
    events.TokenEvent(text="retries ", terms=["retry"]),
    events.SourcesEvent(sources=[SOURCE, SOURCE.model_copy(update={"repo": "api"})]),
    events.ResultEvent(result=AskResult(question="q", route=ROUTE, answer="a", sources=[SOURCE])),
    events.ErrorEvent(kind="timeout", message="no progress"),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_an_event_read_back_has_the_fields_it_was_written_with(event: events.Event) -> None:
    sent = json.loads(wire.ndjson(event))
    assert sent == event.to_json()
    back = wire.decode(sent)
    assert back.type == event.type
    for name in wire.FIELDS[event.type]:
        value = getattr(back, name)
        if name == "sources":
            value = [(s.repo, s.location, s.score) for s in value]
            assert value == [(s.repo, s.location, s.score) for s in getattr(event, name)]
        elif name == "result":
            assert value.json == sent["result"]
            assert value.answer == "a"
            assert [s.location for s in value.sources] == [SOURCE.location]
        else:
            assert value == sent[name]


def test_a_server_sent_event_is_named_by_its_type() -> None:
    event = events.NoticeEvent(kind="llm", text="the LLM failed")
    assert wire.sse(event) == {"event": "notice", "data": json.dumps(event.to_json())}


@pytest.mark.parametrize("data", [{}, {"type": "nope"}, ["route"]])
def test_what_is_no_event_is_said_to_be_none(data: typing.Any) -> None:
    with pytest.raises(ValueError, match="not an answer event"):
        wire.decode(data)
