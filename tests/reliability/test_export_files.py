"""`campaign export -o FILE` writes a temporary file and renames it, and never replaces an existing
file or a symbolic link's target unless --force (issue #13, item 4); nor does any other command
that writes a file (`report`, `roster -o`, `backup`, `seed export`)."""

from __future__ import annotations

import os
import stat
import threading

import pytest


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "md"])
def test_an_existing_file_is_not_replaced_without_force(league, tmp_path, fmt):
    kept = tmp_path / "kept.txt"
    kept.write_text("my notes\n")
    result = league("export", "--format", fmt, "-o", str(kept))
    assert (result.exit_code, result.output) == (2, f"Error: {kept} already exists: nothing written; --force replaces it\n")
    assert kept.read_text() == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.db", "kept.txt"]  # no temporary left


# Every command that writes a file, and how the file it writes begins
WRITERS = {
    "export": (["export", "-o", "{out}"], b'{"'),
    "report": (["report", "-o", "{out}"], b"<!DOCTYPE html>"),
    "roster": (["roster", "Reikland Rats", "--format", "md", "-o", "{out}"], b"# Reikland Rats\n"),
    "backup": (["backup", "{out}"], b"SQLite format 3\x00"),
    "seed export": (["seed", "export", "-o", "{out}"], b'{"campaign": '),
}


@pytest.mark.parametrize("args, begins", WRITERS.values(), ids=WRITERS)
def test_no_command_writes_over_an_existing_file_unless_forced(league, tmp_path, store_bytes, args, begins):
    """`report` and `roster -o` wrote over any file (`seed export` took no --force, and said "choose a new file")."""
    kept = tmp_path / "kept.txt"
    kept.write_text("my notes\n")
    before = store_bytes()
    refused = league(*(arg.format(out=kept) for arg in args))
    assert (refused.exit_code, refused.output) == (2, f"Error: {kept} already exists: nothing written; --force replaces it\n")
    assert store_bytes() == before  # the file as it was, and no temporary left beside it
    forced = league(*(arg.format(out=kept) for arg in args), "--force")
    assert forced.exit_code == 0, forced.output
    assert kept.read_bytes().startswith(begins)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("campaign.db")) == ["kept.txt"]


def test_a_symlink_is_refused_and_its_target_untouched(league, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("do not overwrite\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    result = league("export", "-o", str(link))
    assert (result.exit_code, result.output) == (
        2, f"Error: {link} is a symbolic link (to {target}): nothing written; --force replaces the link\n")
    assert target.read_text() == "do not overwrite\n"


def test_force_replaces_the_link_itself_never_its_target(league, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("do not overwrite\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert league("export", "-o", str(link), "--force").exit_code == 0
    assert not link.is_symlink() and link.read_text().startswith('{"')
    assert target.read_text() == "do not overwrite\n"
    assert league("verify", str(link)).exit_code == 0


def test_a_dangling_symlink_is_refused_too(league, tmp_path):
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "nowhere")
    assert league("export", "-o", str(link)).exit_code == 2
    assert not (tmp_path / "nowhere").exists()


def test_the_trail_appears_only_whole(league, tmp_path, monkeypatch):
    # A failure while writing (a full disk) leaves no file and no temporary behind.
    out = tmp_path / "trail.jsonl"

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    result = league("export", "-o", str(out))
    assert (result.exit_code, result.output) == (2, f"Error: cannot write {out}: No space left on device\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.db"]


def test_a_folder_that_does_not_exist_is_a_clear_error(league, tmp_path):
    out = tmp_path / "no" / "trail.jsonl"
    result = league("export", "-o", str(out))
    assert (result.exit_code, result.output) == (2, f"Error: cannot write {out}: No such file or directory\n")


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_pipe_is_written_into_never_replaced_by_a_file(league, tmp_path, force):
    """As `-o /dev/null` (a device): with --force a file renamed over the name replaced the device itself."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(pipe.read_bytes()), daemon=True)
    reader.start()
    result = league("export", "-o", str(pipe), *force)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert read[0].startswith(b'{"') and read[0].count(b"\n") > 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.db", "pipe"]  # no temporary left


def test_a_backup_into_a_pipe_is_refused(league, tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    result = league("backup", str(pipe), "--force")
    assert (result.exit_code, result.output) == (
        2, f"Error: {pipe} is a device or a pipe: a backup is a SQLite file to open as --store; nothing written\n")
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
