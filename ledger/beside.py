"""Work on a verified history done in a process forked beside the one verifying it, so that a long
history is read with two processors: this process sends each row's bytes as they verify, the other
decodes them and works on the records (`verify` computes the read models' rows there while the
chain is checked here). Its outcome comes back when the rows have all been sent.

Only where a process can be forked (not on Windows); the caller does the work itself otherwise,
and also when the other process was lost (killed, or a fault of the program there), so that a
bug's traceback shows where it always did. A refusal (a LedgerError) comes back as itself."""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import msgspec

from ledger.errors import LedgerError

Rows = Iterator[tuple[int, bytes]]  # (position, bytes), in order
PAGE_ROWS = 500  # rows sent at once: fewer, larger writes to the pipe

_PAGE = msgspec.msgpack.Decoder(list[tuple[int, bytes]])
_ENCODE_PAGE = msgspec.msgpack.encode


@dataclass(frozen=True)
class Outcome:
    """What the work beside gave: its result (`done`), the refusal it raised, or neither (LOST)."""

    done: bool
    result: Any = None
    refused: LedgerError | None = None


LOST = Outcome(done=False)


class Beside:
    """`work(rows)` run in a forked process on the rows `add` sends it; `finish` ends the rows and
    waits for its outcome; `stop` ends it at once (this side failed or was interrupted)."""

    @classmethod
    def started(cls, work: Callable[[Rows], Any]) -> Beside | None:
        """`work` started beside, or None where no process can be forked (Windows, or a limit on
        processes reached): the caller does the work itself."""
        if "fork" not in multiprocessing.get_all_start_methods():
            return None
        try:
            return cls(work)
        except OSError:
            return None

    def __init__(self, work: Callable[[Rows], Any]):
        context = multiprocessing.get_context("fork")
        self._here, there = context.Pipe()
        for stream in (sys.stdout, sys.stderr):  # the other process flushes its copy of their buffers
            stream.flush()
        self._process = context.Process(target=_run, args=(work, there, self._here), daemon=True)
        self._process.start()
        there.close()  # the other process holds it: its end is seen here when that one ends
        self._page: list[tuple[int, bytes]] = []
        self._lost = False

    def add(self, position: int, data: bytes) -> None:
        self._page.append((position, data))
        if len(self._page) >= PAGE_ROWS:
            self._send(_ENCODE_PAGE(self._page))
            self._page = []

    def finish(self) -> Outcome:
        """The rows ended; the work's outcome (LOST if the other process ended without one)."""
        if self._page:
            self._send(_ENCODE_PAGE(self._page))
        self._send(b"")  # no more rows
        try:
            outcome = LOST if self._lost else self._here.recv()
        except Exception:  # noqa: BLE001 - gone (EOFError, OSError), or an outcome that does not unpickle
            outcome = LOST
        self.stop()
        return outcome if isinstance(outcome, Outcome) else LOST

    def stop(self) -> None:
        self._here.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()

    def _send(self, message: bytes) -> None:
        if self._lost:
            return
        try:
            self._here.send_bytes(message)
        except OSError:  # the other process is gone: the work is done here instead
            self._lost = True


class _Received:
    """The rows as they arrive, up to the empty message that ends them."""

    def __init__(self, connection: Connection):
        self.connection, self.ended = connection, False

    def rows(self) -> Rows:
        while not self.ended:
            page = self.connection.recv_bytes()
            if not page:
                self.ended = True
                return
            yield from _PAGE.decode(page)


def _run(work: Callable[[Rows], Any], there: Connection, here: Connection) -> None:
    """The other process: the work on the rows received, then its outcome sent back."""
    here.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the first process, which stops this one
    received = _Received(there)
    try:
        outcome = Outcome(done=True, result=work(received.rows()))
    except LedgerError as refused:
        outcome = Outcome(done=False, refused=refused)
    except BaseException:  # noqa: BLE001 - a fault of the program: the first process does the work itself
        outcome = LOST
    try:
        for _row in received.rows():  # the rows the work did not ask for: the sender must not wait on them
            pass
        there.send(outcome)
    except Exception:  # noqa: BLE001 - the first process is gone, or the outcome does not pickle
        with contextlib.suppress(Exception):  # gone: nothing to tell
            there.send(LOST)
    finally:
        there.close()
