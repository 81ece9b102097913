"""The Redis class store: one class shared by every replica behind a load balancer (REDIS_URL picks it).

Keys (one class is six keys with the same idle TTL, refreshed by every write, so an idle class disappears whole):

    live:{CODE}:meta   HASH   token (SHA-256 of the lecturer token, never the token), view (serial.view_json),
                              question (serial.question_json of the view's question, "" for none), asked_at (the
                              version it was asked at, 0 for none), detail (the question as drawn), rounds (0, 1, 2),
                              r1, r2 ("1" once that round is revealed), ended ("1" once the lecturer ended it)
    live:{CODE}:v      STRING the version: INCR on every change
    live:{CODE}:s      SET    the students' ids (SCARD: how many joined)
    live:{CODE}:a1     HASH   round 1: student id -> answer text (HSET: a student's answer counts once)
    live:{CODE}:a2     HASH   round 2
    live:{CODE}:log    LIST   the questions asked before, oldest first, at most bounds.askings: each a JSON array
                              [asked_at, question, detail, [[{id: answer}, revealed] per round], joined], written
                              by the script that asks another question (or ends the class) from the keys above
    live:open          ZSET   open class codes -> the time of their last write (bounds.classes; swept by score)
    live:ended         ZSET   ended class codes -> when they ended (at most bounds.classes remembered)
    live:bell          (a pub/sub channel, not a key) a class's code, published by the lecturer's write that changed
                              what its followers show, heard by every replica (classroom/bell.py)

One Redis server (or a primary and its replicas), not Redis Cluster: every script touches a class's keys and the two
server-wide sets, which hash to other slots (see class_keys).

Every write is one Lua script (atomic: Redis runs a script alone) that checks the class and the input, changes it,
INCRs the version only when something changed, and refreshes the TTLs. A read is one MULTI/EXEC of the class's keys
(a consistent snapshot, one round trip). Redis unreachable: ClassError("store_unavailable"); a REDIS_URL that is
no Redis URL: the same, with reason="bad_url" (the UI says the setting is wrong).

The lecturer token is checked on its SHA-256 digest: the script compares digests (a timing difference in that
comparison says nothing about the token), is_lecturer compares them with hmac.compare_digest, and a copy of Redis's
data holds no token. The clock (time.time) is shared by the replicas; only the live:open and live:ended sweeps read it,
the keys themselves expire by Redis's own TTL.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import redis

from classroom.api import ROUNDS, Asking, Bounds, ClassError, ClassState, QuestionRef, Round, View
from classroom.bell import CHANNEL, Listener, RedisBell
from classroom.codes import is_code, new_code, new_token
from classroom.serial import (
    check_answer,
    check_detail,
    check_round,
    check_student,
    question_from_dict,
    question_json,
    view_from_json,
    view_json,
)

_LOG = logging.getLogger(__name__)
PREFIX = "live:"
OPEN_KEY = PREFIX + "open"
ENDED_KEY = PREFIX + "ended"
CODE_TRIES = 20
Arg = str | int | float  # what a script's ARGV takes
TIMEOUT_S = 2.0  # a Redis that does not answer in this long is down, for the page that waits

# KEYS: meta, v, s, a1, a2, log, open, ended. ARGV: code, now, ttl_ms, then the script's own.
_PRELUDE = """
local meta, v, s, log, open = KEYS[1], KEYS[2], KEYS[3], KEYS[6], KEYS[7]
local code, now, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local bell = '{bell}'  -- bell.CHANNEL: a PUBLISH after a write that followers must see
local function touch()
  for i = 1, 6 do redis.call('PEXPIRE', KEYS[i], ttl) end
  redis.call('ZADD', open, now, code)
end
local function check_open()
  local ended = redis.call('HGET', meta, 'ended')
  if not ended then return 'class_unknown' end
  if ended == '1' then return 'class_ended' end
  return nil
end
local function check_lecturer(token_hash)
  local refused = check_open()
  if refused then return refused end
  if redis.call('HGET', meta, 'token') ~= token_hash then return 'not_lecturer' end
  return nil
end
local function answers(n) return KEYS[3 + n] end
-- the current question, its rounds and the students joined, appended to the log (its oldest beyond `keep` dropped)
local function archive(keep)
  local question, count = redis.call('HGET', meta, 'question'), tonumber(redis.call('HGET', meta, 'rounds'))
  if not question or question == '' or not count or count == 0 then return end
  local rounds = {}
  for n = 1, count do
    local flat, given = redis.call('HGETALL', answers(n)), {}
    for i = 1, #flat, 2 do given[flat[i]] = flat[i + 1] end
    rounds[n] = {given, redis.call('HGET', meta, 'r' .. n) == '1'}
  end
  local asked_at = tonumber(redis.call('HGET', meta, 'asked_at'))
  local detail = redis.call('HGET', meta, 'detail') or ''
  local entry = {asked_at, question, detail, rounds, redis.call('SCARD', s)}
  redis.call('RPUSH', log, cjson.encode(entry))
  redis.call('LTRIM', log, -keep, -1)
end
-- ask `question` (with its `detail`) from the version this write gives on: round 1 afresh, or no rounds
local function ask(question, detail, keep)
  archive(keep)
  redis.call('DEL', answers(1), answers(2))
  local version = redis.call('INCR', v)
  local asked = question ~= ''
  redis.call('HSET', meta, 'question', question, 'detail', asked and detail or '', 'asked_at', asked and version or 0,
             'rounds', asked and 1 or 0, 'r1', '0', 'r2', '0')
end
"""

_OPEN = """
local token_hash, view, question, detail = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local cutoff, max_classes = tonumber(ARGV[8]), tonumber(ARGV[9])
redis.call('ZREMRANGEBYSCORE', open, '-inf', cutoff)
if redis.call('ZCARD', open) >= max_classes then return 'server_full' end
if redis.call('EXISTS', meta) == 1 then return 'taken' end
redis.call('DEL', log)
redis.call('SET', v, 0)
redis.call('HSET', meta, 'token', token_hash, 'view', view, 'rounds', 0, 'ended', '0')
ask(question, detail, 1)
touch()
return 'ok'
"""

_JOIN = """
local student, max_students = ARGV[4], tonumber(ARGV[5])
local refused = check_open()
if refused then return refused end
if redis.call('SISMEMBER', s, student) == 0 then
  if redis.call('SCARD', s) >= max_students then return 'class_full' end
  redis.call('SADD', s, student)
  redis.call('INCR', v)
end
touch()
return 'ok'
"""

_ANSWER = """
local student, question, number, answer = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local refused = check_open()
if refused then return refused end
if redis.call('SISMEMBER', s, student) == 0 then return 'not_joined' end
local rounds = tonumber(redis.call('HGET', meta, 'rounds'))
if rounds == 0 or redis.call('HGET', meta, 'question') ~= question then return 'no_question' end
if number ~= rounds or redis.call('HGET', meta, 'r' .. rounds) == '1' then return 'round_closed' end
if redis.call('HGET', answers(rounds), student) ~= answer then
  redis.call('HSET', answers(rounds), student, answer)
  redis.call('INCR', v)
end
touch()
return 'ok'
"""

_PUBLISH = """
local token_hash, view, question, detail, keep = ARGV[4], ARGV[5], ARGV[6], ARGV[7], tonumber(ARGV[8])
local refused = check_lecturer(token_hash)
if refused then return refused end
if redis.call('HGET', meta, 'view') ~= view then
  if redis.call('HGET', meta, 'question') ~= question then
    ask(question, detail, keep)
  else
    redis.call('INCR', v)
  end
  redis.call('HSET', meta, 'view', view)
  redis.call('PUBLISH', bell, code)
end
touch()
return 'ok'
"""

# ARGV[5]: "reveal" (the current round takes no more answers) or "again" (open the next, up to ARGV[6] rounds)
_ROUND = """
local refused = check_lecturer(ARGV[4])
if refused then return refused end
local rounds = tonumber(redis.call('HGET', meta, 'rounds'))
if rounds == 0 then return 'no_question' end
if ARGV[5] == 'reveal' and redis.call('HGET', meta, 'r' .. rounds) ~= '1' then
  redis.call('HSET', meta, 'r' .. rounds, '1')
  redis.call('INCR', v)
  redis.call('PUBLISH', bell, code)
elseif ARGV[5] == 'again' and rounds < tonumber(ARGV[6]) then
  redis.call('HSET', meta, 'rounds', rounds + 1)
  redis.call('INCR', v)
  redis.call('PUBLISH', bell, code)
end
touch()
return 'ok'
"""

_END = (
    """
local token_hash, ended_ms, ended_cutoff, max_ended = ARGV[4], tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
local keep = tonumber(ARGV[8])
local ended = redis.call('HGET', meta, 'ended')
if not ended then return 'class_unknown' end
if redis.call('HGET', meta, 'token') ~= token_hash then return 'not_lecturer' end
if ended == '1' then return 'ok' end
ask('', '', keep)
redis.call('HSET', meta, 'ended', '1', 'view', '')
redis.call('DEL', s)
for _, key in ipairs({meta, v, log}) do redis.call('PEXPIRE', key, ended_ms) end
redis.call('ZREM', open, code)
redis.call('PUBLISH', bell, code)
local ended_set = KEYS[8]
redis.call('ZREMRANGEBYSCORE', ended_set, '-inf', ended_cutoff)
redis.call('ZADD', ended_set, now, code)
local extra = redis.call('ZCARD', ended_set) - max_ended
if extra > 0 then
  for _, old in ipairs(redis.call('ZRANGE', ended_set, 0, extra - 1)) do
    redis.call('DEL', '"""
    + PREFIX
    + """{' .. old .. '}:meta', '"""
    + PREFIX
    + """{' .. old .. '}:v', '"""
    + PREFIX
    + """{' .. old .. '}:log')
  end
  redis.call('ZREMRANGEBYRANK', ended_set, 0, extra - 1)
end
return 'ok'
"""
)


def class_keys(code: str) -> list[str]:
    """The keys of class `code`, in the scripts' order (then the two server-wide sets)."""
    # {CODE} is a hash tag: a class's five keys hash alike. That does not make the store Cluster-ready: every script
    # is also given live:open and live:ended (other slots) and _END deletes old classes' keys it names itself, so a
    # script spans slots, which Redis Cluster refuses (CROSSSLOT). The store needs one Redis (with replicas at most).
    base = f"{PREFIX}{{{code}}}:"
    return [*(base + name for name in ("meta", "v", "s", "a1", "a2", "log")), OPEN_KEY, ENDED_KEY]


def token_digest(token: object) -> str:
    """The SHA-256 of a lecturer token, as the class keeps it ("" for what cannot be a token)."""
    if not isinstance(token, str) or not token.isascii():
        return ""
    return hashlib.sha256(token.encode()).hexdigest()


class RedisStore:
    """The ClassStore on a Redis server at `url` (redis://host:port/db)."""

    embedded = False

    def __init__(self, url: str, bounds: Bounds | None = None, clock: Callable[[], float] = time.time) -> None:
        self.bounds = bounds or Bounds()
        self._clock = clock
        try:
            self.client = redis.Redis.from_url(
                url, decode_responses=True, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S
            )
        except ValueError as error:  # no redis://, rediss:// or unix:// scheme, a port that is no port...
            # what redis-py says goes to the server's log, never the URL (it may hold a password)
            _LOG.warning("REDIS_URL is not a Redis URL: %s", error)
            raise ClassError("store_unavailable", reason="bad_url") from None
        self._scripts = {
            name: self.client.register_script(_PRELUDE.replace("{bell}", CHANNEL) + body)
            for name, body in [
                ("open", _OPEN),
                ("join", _JOIN),
                ("answer", _ANSWER),
                ("publish", _PUBLISH),
                ("round", _ROUND),
                ("end", _END),
            ]
        }
        self.bell = RedisBell(self.client.pubsub)

    def listen(self, listener: Listener) -> None:
        """Call `listener(code)` after every lecturer write, on any replica, that changed what a follower shows: the
        write's script PUBLISHes the code on bell.CHANNEL, and this store's listening thread (started by the first
        listener) hears it."""
        self.bell.listen(listener)

    def close(self) -> None:
        """Close the connections to Redis (and stop listening for the bell)."""
        self.bell.close()
        self.client.close()

    # --- the lecturer ---

    def open_class(self, view: View, detail: str = "") -> tuple[str, str]:
        """A new class showing `view`: (code, token); server_full at bounds.classes open classes in this Redis."""
        text = view_json(view, self.bounds)
        detail = check_detail(detail, self.bounds)
        token = new_token()
        now = self._clock()
        for _ in range(CODE_TRIES):
            code = new_code()
            cutoff = now - self.bounds.idle_seconds
            question = question_json(view.question)
            extra = (token_digest(token), text, question, detail, cutoff, self.bounds.classes)
            outcome = self._run("open", code, *extra, now=now)
            if outcome == "ok":
                return code, token
            if outcome != "taken":
                raise ClassError(outcome, limit=self.bounds.classes)
        raise ClassError("server_full", limit=self.bounds.classes)

    def is_lecturer(self, code: str, token: str) -> bool:
        """True when `token` is the open class's lecturer token (False for an unknown or ended class)."""
        if not is_code(code):
            return False
        stored, ended = self._call(lambda: self.client.hmget(class_keys(code)[0], ["token", "ended"]))
        given = token_digest(token)
        return bool(stored and given and ended == "0") and hmac.compare_digest(given, stored)

    def publish(self, code: str, token: str, view: View, detail: str = "") -> ClassState:
        """The lecturer shows `view`; the same view again changes nothing (the version stays). Another question:
        the one before archived, this one's round 1 afresh, kept with `detail`."""
        text = view_json(view, self.bounds)
        detail = check_detail(detail, self.bounds)
        question = question_json(view.question)
        self._write("publish", code, token_digest(token), text, question, detail, self.bounds.askings)
        return self.state(code)

    def history(self, code: str, token: str) -> tuple[Asking, ...]:
        """The questions asked, oldest first, the current one as it is now; an ended class's too (one MULTI/EXEC)."""
        meta, _, s, a1, a2, log, _, _ = self._keys(code)

        def read() -> list:
            pipe = self.client.pipeline()
            pipe.hgetall(meta)
            pipe.scard(s)
            pipe.hgetall(a1)
            pipe.hgetall(a2)
            pipe.lrange(log, 0, -1)
            return pipe.execute()

        fields, students, answers1, answers2, archived = self._call(read)
        given = token_digest(token)
        if not fields:
            raise ClassError("class_unknown")
        if not (given and hmac.compare_digest(given, fields.get("token", ""))):
            raise ClassError("not_lecturer")
        try:
            askings = [_archived(json.loads(entry)) for entry in archived]
            if fields["ended"] != "1" and fields["question"]:
                count = int(fields["rounds"])
                rounds = tuple(
                    Round(n, (answers1, answers2)[n - 1], fields[f"r{n}"] == "1") for n in range(1, count + 1)
                )
                question = question_from_dict(json.loads(fields["question"]))
                askings.append(Asking(int(fields["asked_at"]), question, fields["detail"], rounds, students))
        except (KeyError, IndexError, TypeError, ValueError) as error:  # written by another release
            _LOG.warning("class %s's history is not in this release's format: %s", code, error)
            raise ClassError("class_unknown") from None
        return tuple(askings[-self.bounds.askings :])

    def reveal(self, code: str, token: str) -> ClassState:
        """The current round takes no more answers; a second reveal changes nothing."""
        self._write("round", code, token_digest(token), "reveal", ROUNDS)
        return self.state(code)

    def vote_again(self, code: str, token: str) -> ClassState:
        """Round 2 of the current question (round 1 takes no more answers); at ROUNDS, nothing changes."""
        self._write("round", code, token_digest(token), "again", ROUNDS)
        return self.state(code)

    def end(self, code: str, token: str) -> tuple[Asking, ...]:
        """The class ends: its students and current answers are deleted, the current question archived (the history
        stays the lecturer's to read for bounds.ended_seconds); ending it again changes nothing."""
        ended_ms = max(1, round(self.bounds.ended_seconds * 1000))
        cutoff = self._clock() - self.bounds.ended_seconds
        self._write("end", code, token_digest(token), ended_ms, cutoff, self.bounds.classes, self.bounds.askings)
        return self.history(code, token)

    # --- the students ---

    def join(self, code: str, student_id: str) -> ClassState:
        """`student_id` joins (again: nothing changes); class_full at bounds.students."""
        self._write("join", code, check_student(student_id), self.bounds.students)
        return self.state(code)

    def answer(self, code: str, student_id: str, question: QuestionRef, round_number: int, answer: str) -> None:
        """The student's answer to the current round; the same answer again changes nothing (the version stays)."""
        answer = check_answer(answer, self.bounds)
        number = check_round(round_number)
        self._write("answer", code, check_student(student_id), question_json(question), number, answer)

    # --- reads ---

    def state(self, code: str) -> ClassState:
        """The class as it is now, read in one MULTI/EXEC (a read: the idle clock goes on)."""
        meta, v, s, a1, a2, *_ = self._keys(code)

        def read() -> list:
            pipe = self.client.pipeline()  # transaction=True: MULTI ... EXEC
            pipe.hgetall(meta)
            pipe.get(v)
            pipe.scard(s)
            pipe.hgetall(a1)
            pipe.hgetall(a2)
            return pipe.execute()

        fields, version, students, answers1, answers2 = self._call(read)
        self._check_read(fields, version)
        try:
            count = int(fields["rounds"])
            answers = (answers1, answers2)
            rounds = tuple(Round(n, answers[n - 1], fields[f"r{n}"] == "1") for n in range(1, count + 1))
            view = view_from_json(fields["view"])
            asked_at = int(fields["asked_at"])
        except (KeyError, IndexError, ValueError) as error:  # written by another release (a rolling deploy)
            _LOG.warning("class %s is not in this release's format: %s", code, error)
            raise ClassError("class_unknown") from None
        return ClassState(code, int(version), view, students, rounds, False, asked_at)

    def version(self, code: str) -> int:
        """The class's version alone (one MULTI/EXEC of two fields)."""
        meta, v, *_ = self._keys(code)

        def read() -> list:
            pipe = self.client.pipeline()
            pipe.hget(meta, "ended")
            pipe.get(v)
            return pipe.execute()

        ended, version = self._call(read)
        self._check_read({"ended": ended} if ended is not None else {}, version)
        return int(version)

    # --- helpers ---

    def _keys(self, code: str) -> list[str]:
        if not is_code(code):
            raise ClassError("class_unknown")
        return class_keys(code)

    @staticmethod
    def _check_read(fields: dict, version: str | None) -> None:
        if not fields or version is None:  # expired, or (maxmemory) part of it evicted: no class to show
            raise ClassError("class_unknown")
        if fields["ended"] == "1":
            raise ClassError("class_ended")

    def _write(self, script: str, code: str, *extra: Arg) -> None:
        outcome = self._run(script, code, *extra, now=self._clock())
        if outcome != "ok":
            limit = {"class_full": self.bounds.students}.get(outcome)
            raise ClassError(outcome, **({"limit": limit} if limit is not None else {}))

    def _run(self, script: str, code: str, *extra: Arg, now: float) -> str:
        keys = self._keys(code)
        ttl_ms = max(1, round(self.bounds.idle_seconds * 1000))
        args: list[Arg] = [code, now, ttl_ms, *extra]
        return str(self._call(lambda: self._scripts[script](keys=keys, args=args)))

    @staticmethod
    def _call(request: Callable[[], Any]) -> Any:
        try:
            return request()
        except redis.RedisError as error:
            raise ClassError("store_unavailable") from error


def _archived(entry: Any) -> Asking:
    """An asking as the scripts' archive() wrote it to the log; ValueError when it is not one."""
    asked_at, question, detail, rounds, joined = entry
    if not (isinstance(rounds, list) and all(isinstance(r, list) and len(r) == 2 for r in rounds)):
        raise ValueError(f"not an asking's rounds: {rounds!r:.80}")
    kept = tuple(
        Round(n, {str(k): str(a) for k, a in given.items()} if isinstance(given, dict) else {}, revealed is True)
        for n, (given, revealed) in enumerate(rounds, start=1)
    )
    return Asking(int(asked_at), question_from_dict(json.loads(question)), str(detail), kept, int(joined))
