"""Files the ledger writes for people (exports, reports, roster sheets, backups, exported seeds):
whole or not at all, never over another file, never over the store's own.

The content goes to a temporary file in the same folder, is flushed to disk, and is renamed over
the name asked for only when complete, so a crash or a full disk leaves the old file (or none),
never half a trail. An existing file — or a symbolic link, whose target would be overwritten — is
refused unless the caller forces it (every command that writes a file takes `--force` for it);
then the name is replaced, never a link's target. The files the store is kept in (its database,
journals and key file) are refused even then. A device or a pipe (`-o /dev/null`) is written into
as it is: a file renamed over it replaced the device itself.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from ledger.errors import BadInput


def refuse_unnamed(path: Path) -> None:
    if not path.name:  # -o '' is Path("."): replacing the current folder failed, or was said to exist
        raise BadInput("the file name is empty: name the file to write; nothing written")


def refuse_existing(path: Path, force: bool) -> None:
    refuse_unnamed(path)
    if force or is_device_or_pipe(path):
        return
    if path.is_symlink():
        raise BadInput(f"{path} is a symbolic link (to {os.readlink(path)}): nothing written; --force replaces the link")
    if path.exists():
        raise BadInput(f"{path} already exists: nothing written; --force replaces it")


def refuse_writing(path: Path, kept: Mapping[str, str], force: bool) -> None:
    """Everything that keeps `path` from being written: one of the files `kept` (with `force`
    too), no name, an existing file or a link (without `force`). `written_whole` checks it as it
    begins; a command checks it first too when what it writes takes long to make."""
    refuse_replacing(path, kept)
    refuse_existing(path, force)


def refuse_replacing(path: Path, kept: Mapping[str, str]) -> None:
    """Refuse to write `path` where it is one of the files `kept` (file -> what it is, for the
    message): the same name in the same folder, by whatever path to the folder (a symbolic link to
    it, '..'), or the same file by another name (a hard link). A symbolic link at `path` itself is
    not its target: --force replaces the link, not the file."""
    for file, what in kept.items():
        if _same_entry(path, Path(file)):
            raise BadInput(f"{path} is {what}: nothing written")


def _same_entry(path: Path, other: Path) -> bool:
    try:
        if path.name == other.name and os.path.samefile(path.parent, other.parent):
            return True
        written, kept = os.lstat(path), os.stat(other)
    except OSError:  # a folder or file that is not there
        return False
    return (written.st_dev, written.st_ino) == (kept.st_dev, kept.st_ino)


def is_device_or_pipe(path: Path) -> bool:
    """A character or block device, a FIFO or a socket at `path` itself (a link is a link)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


@contextlib.contextmanager
def written_whole(path: Path, *, kept: Mapping[str, str], force: bool = False,
                  private: bool = False) -> Iterator[Path]:
    """A temporary path in `path`'s folder to write to; renamed to `path` when the block ends well
    (see `refuse_writing` for `kept` and `force`; `private`: readable by its owner only, as a
    secret is). A device or a pipe is itself the path written to."""
    if is_device_or_pipe(path):
        try:
            yield path
        except OSError as error:
            raise BadInput(f"cannot write {path}: {error.strerror}") from None
        return
    refuse_writing(path, kept, force)
    folder = path.parent
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".partial")
    except OSError as error:
        raise BadInput(f"cannot write {path}: {error.strerror}") from None
    os.close(handle)
    if not private:
        os.chmod(temporary, 0o666 & ~_umask())  # as an ordinary new file, not mkstemp's owner-only
    try:
        yield Path(temporary)
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        if not force:
            refuse_existing(path, force)  # made meanwhile by someone else
        os.replace(temporary, path)
    except OSError as error:
        raise BadInput(f"cannot write {path}: {error.strerror}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(temporary)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_whole(path: Path, data: bytes, *, kept: Mapping[str, str], force: bool = False,
                private: bool = False) -> None:
    with written_whole(path, kept=kept, force=force, private=private) as temporary:
        temporary.write_bytes(data)
