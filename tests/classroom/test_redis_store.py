"""What only the Redis store promises: replicas share a class, every key expires, no token is kept, a restarted
Redis (with its append-only file) loses no answer, and a Redis that is down says store_unavailable."""

from __future__ import annotations

import pytest

from classroom.api import Bounds, ClassError, QuestionRef, View
from classroom.codes import new_student_id
from classroom.redis_store import RedisStore, class_keys
from harness.redis_server import RedisServer

Q = QuestionRef("walk.2", "walk.2.score", 3)
ASKING = View("walkthrough", step=2, question=Q)


@pytest.fixture
def store(redis_server):
    store = RedisStore(redis_server.url)
    store.client.flushdb()
    yield store
    store.close()


def test_two_replicas_share_one_class(store, redis_server):
    other = RedisStore(redis_server.url)  # another server process behind the balancer
    try:
        code, token = store.open_class(ASKING)
        a, b = new_student_id(), new_student_id()
        store.join(code, a)
        other.join(code, b)
        store.answer(code, a, Q, 1, "1")
        other.answer(code, b, Q, 1, "2")
        assert other.is_lecturer(code, token)
        other.reveal(code, token)
        state = store.state(code)
        assert state.students == 2 and state.rounds[0].answers == {a: "1", b: "2"} and state.rounds[0].revealed
    finally:
        other.close()


def test_every_key_of_a_class_expires_and_no_token_is_kept(redis_server):
    store = RedisStore(redis_server.url, bounds=Bounds(idle_seconds=100))
    store.client.flushdb()
    try:
        code, token = store.open_class(ASKING)
        student = new_student_id()
        store.join(code, student)
        store.answer(code, student, Q, 1, "0")
        other = QuestionRef("walk.3", "walk.3.weight", 2)
        store.publish(code, token, View("walkthrough", step=3, question=other))  # Q archived: the log is written
        store.answer(code, student, other, 1, "0")
        store.vote_again(code, token)
        store.answer(code, student, other, 2, "1")
        class_own = class_keys(code)[:6]
        assert set(store.client.keys("*")) == {*class_own, "live:open"}
        for key in class_own:
            assert 0 < store.client.pttl(key) <= 100_000, key
        meta = store.client.hgetall(class_keys(code)[0])
        assert token not in str(meta) and len(meta["token"]) == 64  # its SHA-256, in hex
    finally:
        store.close()


def test_a_redis_restart_loses_no_answer(tmp_path):
    server = RedisServer(tmp_path, appendonly=True).start()
    try:
        store = RedisStore(server.url)
        code, token = store.open_class(ASKING)
        students = [new_student_id() for _ in range(20)]
        for k, student in enumerate(students):
            store.join(code, student)
            store.answer(code, student, Q, 1, str(k % 4))
        server.stop(kill=True)  # as a crashed node goes: SIGKILL
        with pytest.raises(ClassError) as down:
            store.state(code)
        assert down.value.code == "store_unavailable"
        server.start()  # the same port and data directory: the append-only file is read back
        state = store.state(code)
        assert state.students == 20
        assert state.rounds[0].answers == {student: str(k % 4) for k, student in enumerate(students)}
        assert store.is_lecturer(code, token)
        store.close()
    finally:
        server.stop()


def test_a_redis_that_is_down_says_store_unavailable(tmp_path):
    server = RedisServer(tmp_path).start()
    store = RedisStore(server.url)
    code, token = store.open_class(ASKING)
    server.stop()
    calls = [
        lambda: store.open_class(ASKING),
        lambda: store.join(code, new_student_id()),
        lambda: store.state(code),
        lambda: store.version(code),
        lambda: store.is_lecturer(code, token),
        lambda: store.publish(code, token, ASKING),
        lambda: store.answer(code, new_student_id(), Q, 1, "1"),
        lambda: store.reveal(code, token),
        lambda: store.vote_again(code, token),
        lambda: store.end(code, token),
        lambda: store.history(code, token),
    ]
    for call in calls:
        with pytest.raises(ClassError) as error:
            call()
        assert error.value.code == "store_unavailable"
    store.close()


def test_a_class_with_a_key_evicted_reads_as_unknown_not_a_crash(store):
    code, _ = store.open_class(ASKING)
    store.client.delete(class_keys(code)[1])  # maxmemory's eviction took the version key alone
    for read in (store.state, store.version):
        with pytest.raises(ClassError) as error:
            read(code)
        assert error.value.code == "class_unknown"


def test_a_class_written_by_an_older_replica_reads_as_unknown_not_a_crash(store):
    """During a rolling deploy a replica of the release before wrote the view with a question of three fields (no
    digest): the new code cannot read it, and says the class is unknown instead of raising ValueError into every
    page that reads it."""
    code, _ = store.open_class(ASKING)
    legacy = '{"page":"walkthrough","question":{"gate":"walk.2","seed":3,"template_id":"walk.2.score"},'
    store.client.hset(class_keys(code)[0], "view", legacy + '"scenario":null,"step":2}')
    with pytest.raises(ClassError) as error:
        store.state(code)
    assert error.value.code == "class_unknown"


def test_a_classs_keys_share_a_slot_but_its_scripts_span_slots_so_the_store_is_not_for_redis_cluster():
    from redis.crc import key_slot

    keys = class_keys("ABC234")
    assert len({key_slot(key.encode()) for key in keys[:5]}) == 1, "the hash tag {ABC234}: one slot for the class"
    assert len({key_slot(key.encode()) for key in keys}) > 1, "live:open and live:ended hash elsewhere"
