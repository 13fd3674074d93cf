"""The dice keeper's key file: the secret seeds of SQLite campaigns, outside every campaign file.

A SQLite campaign file gets copied around a league; if the seed of the open epoch were inside it,
whoever holds a copy could predict every ledger die. So the seeds live in one file of the person
running the ledger: `$CAMPAIGN_KEYS` when set, else `$XDG_DATA_HOME/campaign-ledger/keys.json`
(`~/.local/share/campaign-ledger/keys.json`), readable by its owner only (mode 0600, in a folder of
mode 0700). It maps campaign id -> epoch -> seed (64 hex digits). Writes replace the file
atomically under a lock, so two commands starting campaigns at once both keep their seeds.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import msgspec

from ledger.errors import BadInput, IntegrityFailure

KEYS_ENV = "CAMPAIGN_KEYS"
FORMAT = "campaign-ledger-keys"
# A seed is some 80 bytes of the file: a million campaigns' first seeds fit in this.
KEY_FILE_LIMIT = 128 * 1024 * 1024


class _Content(msgspec.Struct):
    """What a key file holds, as typed as every look-up reads it: a damaged file (a seed that is
    not text, a campaign's entry that is not an object, an epoch that is not a number) is refused
    when it is read, naming where, not wherever a value of the wrong type is first used. A seed's
    own text is checked against its epoch's commitment before each use."""

    format: str
    seeds: dict[str, dict[Annotated[str, msgspec.Meta(pattern="^(0|[1-9][0-9]*)$")], str]]
    version: int = 1


_CONTENT = msgspec.json.Decoder(_Content)


def key_file_path() -> Path:
    override = os.environ.get(KEYS_ENV)
    if override:
        return Path(override).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "campaign-ledger" / "keys.json"


class KeyFile:
    """Seeds by campaign and epoch, in the key file at `path`. A seed found is kept for the next
    look-up (every ledger roll of a long-lived process would read the file again): an epoch's seed
    never changes once kept (another is refused), and each use checks it against its commitment.
    One not found is looked for afresh: another process may have kept it since."""

    def __init__(self, path: Path | None = None):
        self.path = path or key_file_path()
        self._found: dict[tuple[str, int], str] = {}

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            with self.path.open("rb") as file:
                self._refuse_open_to_others(os.fstat(file.fileno()).st_mode)
                data = file.read(KEY_FILE_LIMIT + 1)  # not read_bytes: CAMPAIGN_KEYS=/dev/zero never ended
        except FileNotFoundError:
            return {}
        except OSError as error:
            raise BadInput(f"cannot read the key file {self.path}: {error.strerror}") from None
        if len(data) > KEY_FILE_LIMIT:
            raise IntegrityFailure(f"the key file {self.path} is not a campaign-ledger key file "
                                   f"(more than {KEY_FILE_LIMIT:,} bytes)")
        try:
            content = _CONTENT.decode(data)
        except msgspec.DecodeError as error:  # not JSON, not UTF-8, or a value of another type
            raise IntegrityFailure(f"the key file {self.path} is not a campaign-ledger key file ({error})") from None
        if content.format != FORMAT:
            raise IntegrityFailure(f"the key file {self.path} is not a campaign-ledger key file "
                                   f"(its format is {json.dumps(content.format)}, not {json.dumps(FORMAT)})")
        return content.seeds

    def _refuse_open_to_others(self, mode: int) -> None:
        """The file is its keeper's alone (mode 0600, as the ledger writes it): one that others may read or write (a
        copy made with the usual umask) is refused before its seeds are read, naming the way on, never used silently."""
        if stat.S_ISREG(mode) and mode & 0o077:
            raise BadInput(f"the key file {self.path} is open to others (mode {stat.S_IMODE(mode):04o}): whoever reads "
                           f"its seeds can foresee every ledger die; make it yours alone (chmod 600 {self.path}) and "
                           "run again")

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            lock = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise BadInput(f"cannot write the key file {self.path}: {error.strerror}") from None
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield
        finally:
            os.close(lock)

    def _write(self, seeds: dict[str, dict[str, str]]) -> None:
        text = json.dumps({"format": FORMAT, "version": 1, "seeds": seeds}, indent=1, sort_keys=True)
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, 0o600)  # an existing temporary file keeps its mode through O_CREAT
            os.replace(temporary, self.path)
        except OSError as error:
            raise BadInput(f"cannot write the key file {self.path}: {error.strerror}") from None

    def seed(self, campaign_id: str, epoch: int) -> str | None:
        found = self._found.get((campaign_id, epoch)) or self._read().get(campaign_id, {}).get(str(epoch))
        if found is not None:
            self._found[campaign_id, epoch] = found
        return found

    def seeds(self, campaign_id: str) -> dict[int, str]:
        return {int(epoch): seed for epoch, seed in self._read().get(campaign_id, {}).items()}

    def campaigns(self) -> int:
        return len(self._read())

    def save(self, campaign_id: str, epoch: int, seed_hex: str) -> None:
        """Keep a seed; a different seed for an epoch that has one is refused (never replaced)."""
        self.save_all(campaign_id, {epoch: seed_hex})

    def save_all(self, campaign_id: str, seeds: dict[int, str]) -> None:
        with self._locked():
            kept = self._read()
            held = kept.setdefault(campaign_id, {})
            for epoch, seed_hex in sorted(seeds.items()):
                if held.get(str(epoch), seed_hex) != seed_hex:
                    raise IntegrityFailure(f"a seed for epoch {epoch} is already stored")
                held[str(epoch)] = seed_hex
            self._write(kept)
