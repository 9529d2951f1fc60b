"""Admission and the length cap, on their own: slots, the bounded queue, Busy, the counts
``/v1/health`` reports, and the 413 past the length limit."""

from __future__ import annotations

import asyncio

import pytest

from codeagent.server.limits import Admission, Busy, check_length
from codeagent.server.repos import RequestError


def load(admission: Admission) -> tuple[int, int]:
    data = admission.to_json()
    return data["running"], data["waiting"]


def test_slots_then_the_queue_then_busy() -> None:
    async def scenario() -> None:
        admission = Admission(max_concurrent=2, max_queue=1)
        assert admission.to_json() == {
            "running": 0,
            "waiting": 0,
            "max_concurrent": 2,
            "max_queue": 1,
        }
        await admission.acquire()
        assert load(admission) == (1, 0)
        await admission.acquire()
        assert load(admission) == (2, 0)
        queued = asyncio.create_task(admission.acquire())
        await asyncio.sleep(0)
        assert not queued.done()
        assert load(admission) == (2, 1)
        with pytest.raises(Busy):
            await admission.acquire()
        assert load(admission) == (2, 1)  # a refusal changes nothing
        admission.release()
        await asyncio.wait_for(queued, 5)
        assert load(admission) == (2, 0)
        admission.release()
        admission.release()
        assert load(admission) == (0, 0)
        await admission.acquire()  # the slots are really back
        await admission.acquire()
        assert load(admission) == (2, 0)

    asyncio.run(scenario())


def test_no_queue_refuses_as_soon_as_the_slots_are_taken() -> None:
    async def scenario() -> None:
        admission = Admission(max_concurrent=1, max_queue=0)
        await admission.acquire()
        with pytest.raises(Busy):
            await admission.acquire()
        assert load(admission) == (1, 0)
        admission.release()
        await asyncio.wait_for(admission.acquire(), 5)  # a free slot is taken without waiting
        assert load(admission) == (1, 0)

    asyncio.run(scenario())


def test_a_cancelled_waiter_leaves_the_queue() -> None:
    async def scenario() -> None:
        admission = Admission(max_concurrent=1, max_queue=1)
        await admission.acquire()
        waiter = asyncio.create_task(admission.acquire())
        await asyncio.sleep(0)
        assert load(admission) == (1, 1)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert load(admission) == (1, 0)
        queued = asyncio.create_task(admission.acquire())  # its place in the queue is free
        await asyncio.sleep(0)
        assert load(admission) == (1, 1)
        admission.release()
        await asyncio.wait_for(queued, 5)
        assert load(admission) == (1, 0)

    asyncio.run(scenario())


def test_a_slot_is_given_back_when_the_block_fails() -> None:
    async def scenario() -> None:
        admission = Admission(max_concurrent=1, max_queue=0)
        seen: list[tuple[int, int]] = []

        async def failing_answer() -> None:
            async with admission.slot():
                seen.append(load(admission))
                raise RuntimeError("the answer failed")

        with pytest.raises(RuntimeError):
            await failing_answer()
        assert seen == [(1, 0)]
        assert load(admission) == (0, 0)
        async with admission.slot():
            assert load(admission) == (1, 0)
        assert load(admission) == (0, 0)

    asyncio.run(scenario())


def test_the_length_cap_refuses_past_the_limit_only() -> None:
    check_length("x" * 10, 10)
    check_length("", 0)
    with pytest.raises(RequestError) as refused:
        check_length("x" * 11, 10, what="search query")
    assert refused.value.status == 413
    assert str(refused.value) == (
        "the search query has 11 characters, over the limit of 10 (max_question_chars): shorten it"
    )
    with pytest.raises(RequestError, match=r"^the question has 1 characters"):
        check_length("x", 0)


def test_the_queue_counts_every_waiter() -> None:
    async def scenario() -> None:
        admission = Admission(max_concurrent=1, max_queue=2)
        await admission.acquire()
        waiters = [asyncio.create_task(admission.acquire()) for _ in range(2)]
        await asyncio.sleep(0)
        assert load(admission) == (1, 2)
        with pytest.raises(Busy):
            await admission.acquire()
        for waiter in waiters:
            admission.release()
            await asyncio.wait_for(waiter, 5)
        assert load(admission) == (1, 0)

    asyncio.run(scenario())
