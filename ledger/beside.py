"""Work on a verified history done in a process forked beside the one verifying it, so that a long
history is read with two processors: this process sends the items (records) as they verify, a page
at a time in msgpack, the other works on them (`verify` computes the read models' rows there while
the chain is checked here). Its outcome comes back when the items have all been sent.

Only where a process can be forked (not on Windows); the caller does the work itself otherwise,
and also when the other process was lost (killed, or a fault of the program there), so that a
bug's traceback shows where it always did. A refusal (a LedgerError) comes back as itself."""

from __future__ import annotations

import contextlib
import queue
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from ledger.errors import LedgerError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

PAGE_ITEMS = 500  # items sent at once: fewer, larger writes to the pipe
PAGES_AHEAD = 24  # pages queued to be sent (a verify's: about 4 MB)
_ENCODE_PAGE = msgspec.msgpack.encode


@dataclass(frozen=True)
class Outcome:
    """What the work beside gave: its result (`done`), the refusal it raised, or neither (LOST)."""

    done: bool
    result: Any = None
    refused: LedgerError | None = None


LOST = Outcome(done=False)


class NotBeside(Exception):
    """Raised by a work that cannot be done in the process beside (it cannot open the store there,
    say): not a refusal of the work, which the first process then does itself."""


Work = Callable[[Iterator[Any]], Any]  # on the items, in the order sent
PageDecoder = Callable[[bytes], Iterable[Any]]  # a page of items back from its msgpack


class Beside:
    """`work(items)` run in a forked process on the items `add` sends it (each page decoded there by
    `decode_page`: by default as plain msgpack values); `finish` ends the items and waits for its
    outcome; `stop` ends it at once (this side failed or was interrupted)."""

    @classmethod
    def started(cls, work: Work, decode_page: PageDecoder = msgspec.msgpack.decode) -> Beside | None:
        """`work` started beside, or None where no process can be forked (Windows, or a limit on
        processes reached): the caller does the work itself."""
        import multiprocessing  # here: every command imports this module (the store's), few fork

        if "fork" not in multiprocessing.get_all_start_methods():
            return None
        try:
            return cls(work, decode_page)
        except OSError:
            return None

    def __init__(self, work: Work, decode_page: PageDecoder = msgspec.msgpack.decode):
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self._here, there = context.Pipe()
        for stream in (sys.stdout, sys.stderr):  # the other process flushes its copy of their buffers
            stream.flush()
        self._process = context.Process(target=_run, args=(work, decode_page, there, self._here), daemon=True)
        self._process.start()
        there.close()  # the other process holds it: its end is seen here when that one ends
        self._page: list[Any] = []
        self._lost = False
        # A thread of its own sends the pages, up to PAGES_AHEAD of them ahead of the other process's
        # reading: this one goes on while that one is busy (a socket holds about 200 KB). Started
        # with the first page, so that no thread of this one runs while another Beside forks.
        self._pages: queue.Queue[bytes | None] = queue.Queue(maxsize=PAGES_AHEAD)
        self._sender: threading.Thread | None = None

    def add(self, item: Any) -> None:
        self._page.append(item)
        if len(self._page) >= PAGE_ITEMS:
            self._queue(_ENCODE_PAGE(self._page))
            self._page = []

    def finish(self) -> Outcome:
        """The items ended; the work's outcome (LOST if the other process ended without one)."""
        if self._page:
            self._queue(_ENCODE_PAGE(self._page))
        self._queue(b"")  # no more items
        self._sent()
        try:
            outcome = LOST if self._lost else self._here.recv()
        except Exception:  # noqa: BLE001 - gone (EOFError, OSError), or an outcome that does not unpickle
            outcome = LOST
        self.stop()
        return outcome if isinstance(outcome, Outcome) else LOST

    def stop(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._sent()  # what the thread was sending fails, and the rest is dropped
        self._here.close()

    def _queue(self, message: bytes) -> None:
        if self._sender is None:
            self._sender = threading.Thread(target=self._send_pages, daemon=True)
            self._sender.start()
        self._pages.put(message)

    def _sent(self) -> None:
        """The pages queued so far sent (or dropped, the other process gone), and the thread ended."""
        if self._sender is not None and self._sender.is_alive():
            self._pages.put(None)
            self._sender.join()

    def _send_pages(self) -> None:
        while (page := self._pages.get()) is not None:
            if self._lost:
                continue
            try:
                self._here.send_bytes(page)
            except OSError:  # the other process is gone: the work is done here instead
                self._lost = True


class _Received:
    """The items as they arrive, up to the empty message that ends them."""

    def __init__(self, connection: Connection, decode_page: PageDecoder):
        self.connection, self.decode_page, self.ended = connection, decode_page, False

    def items(self) -> Iterator[Any]:
        while not self.ended:
            page = self.connection.recv_bytes()
            if not page:
                self.ended = True
                return
            yield from self.decode_page(page)


def _run(work: Work, decode_page: PageDecoder, there: Connection, here: Connection) -> None:
    """The other process: the work on the items received, then its outcome sent back."""
    here.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the first process, which stops this one
    received = _Received(there, decode_page)
    try:
        outcome = Outcome(done=True, result=work(received.items()))
    except NotBeside:
        outcome = LOST
    except LedgerError as refused:
        outcome = Outcome(done=False, refused=refused)
    except BaseException:  # noqa: BLE001 - a fault of the program: the first process does the work itself
        outcome = LOST
    try:
        for _item in received.items():  # those the work did not ask for: the sender must not wait on them
            pass
        there.send(outcome)
    except Exception:  # noqa: BLE001 - the first process is gone, or the outcome does not pickle
        with contextlib.suppress(Exception):  # gone: nothing to tell
            there.send(LOST)
    finally:
        there.close()
