"""What `campaign export -o FILE` may not write over, even with --force: the store's own files (its
SQLite database, by any path to it, and the journals beside it), which an export renamed over the
live store; and no file at all (`-o ''`), which was taken for the current folder."""

from __future__ import annotations

import os

import pytest


def over_the_store(db_path, shown: str | None = None, what: str = "the database") -> tuple[int, str]:
    return 2, f"Error: {shown or db_path} is {what} of the store sqlite:///{db_path}: nothing written\n"


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "md"])
def test_the_store_itself_is_refused_with_force_too(league, db_path, store_bytes, fmt):
    before = store_bytes()
    result = league("export", "--format", fmt, "-o", str(db_path), "--force")
    assert (result.exit_code, result.output) == over_the_store(db_path)
    assert store_bytes() == before
    assert league("verify").exit_code == 0


def test_the_store_reached_through_a_linked_folder_or_dot_dot_is_refused(league, db_path, tmp_path, store_bytes):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path, target_is_directory=True)
    before = store_bytes()
    for path in (tmp_path / "sub" / "up" / db_path.name, tmp_path / "sub" / ".." / db_path.name):
        result = league("export", "-o", str(path), "--force")
        assert (result.exit_code, result.output) == over_the_store(db_path, str(path))
    assert store_bytes() == before


def test_another_name_of_the_store_file_is_refused(league, db_path, tmp_path, store_bytes):
    hard_link = tmp_path / "another-name.db"
    os.link(db_path, hard_link)
    before = store_bytes()
    result = league("export", "-o", str(hard_link), "--force")
    assert (result.exit_code, result.output) == over_the_store(db_path, str(hard_link))
    assert store_bytes() == before


@pytest.mark.parametrize("suffix, what", [
    ("-wal", "the write-ahead log"), ("-shm", "the shared-memory index"), ("-journal", "the rollback journal"),
])
def test_the_journals_beside_the_store_are_refused_whether_there_or_not(league, db_path, suffix, what):
    journal = db_path.with_name(db_path.name + suffix)
    result = league("export", "-o", str(journal), "--force")
    assert (result.exit_code, result.output) == over_the_store(db_path, str(journal), what)
    assert league("verify").exit_code == 0


def test_a_symbolic_link_to_the_store_is_replaced_by_force_never_the_store(league, db_path, tmp_path):
    """--force replaces a link, never its target (ledger.files): the store is not written."""
    link = tmp_path / "link.jsonl"
    link.symlink_to(db_path)
    assert league("export", "-o", str(link), "--force").exit_code == 0
    assert not link.is_symlink()
    assert league("verify", str(link)).exit_code == 0
    assert league("verify").exit_code == 0


EMPTY_NAME = (2, "Error: the file name is empty: name the file to write; nothing written\n")


@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_empty_file_name_is_refused(league, tmp_path, store_bytes, fmt, force):
    """It said `.` already exists (with --force: cannot write .: Device or resource busy)."""
    before = store_bytes()
    result = league("export", "--format", fmt, "-o", "", *force)
    assert (result.exit_code, result.output) == EMPTY_NAME
    assert store_bytes() == before


@pytest.mark.parametrize("args", [["report", "-o", ""], ["backup", ""], ["roster", "Reikland Rats", "--format", "md", "-o", ""]],
                         ids=["report", "backup", "roster"])
def test_every_file_written_whole_refuses_an_empty_name(league, store_bytes, args):
    before = store_bytes()
    result = league(*args)
    assert (result.exit_code, result.output) == EMPTY_NAME
    assert store_bytes() == before


@pytest.mark.parametrize("args", [
    ["report", "-o", "{db}"],  # it wrote over any file without --force: the store went with it
    ["report", "-o", "{db}", "--force"],
    ["roster", "Reikland Rats", "--format", "md", "-o", "{db}", "--force"],
    ["backup", "{db}", "--force"],
    ["seed", "export", "-o", "{db}", "--force"],
])
def test_a_report_roster_sheet_backup_or_seed_over_the_store_is_refused(league, db_path, store_bytes, args):
    before = store_bytes()
    result = league(*(arg.format(db=db_path) for arg in args))
    assert (result.exit_code, result.output) == over_the_store(db_path)
    assert store_bytes() == before
    assert league("verify").exit_code == 0


def test_a_seed_exported_to_no_file_is_refused(league, store_bytes):
    result = league("seed", "export", "-o", "")
    assert (result.exit_code, result.output) == (2, "Error: the file name is empty: name the file to write; nothing written\n")


# Every command that writes a file, its name given as {out}, and how click names that option.
WRITES_A_FILE = pytest.mark.parametrize("args, option", [
    (["report", "-o", "{out}"], "'-o' / '--out' / '--output'"),
    (["export", "--format", "md", "-o", "{out}"], "'-o' / '--output'"),
    (["roster", "Reikland Rats", "--format", "html", "-o", "{out}"], "'-o' / '--out' / '--output'"),
    (["backup", "{out}"], "'TARGET'"),
    (["seed", "export", "-o", "{out}"], "'-o' / '--output'"),
], ids=["report", "export", "roster", "backup", "seed"])


@WRITES_A_FILE
def test_a_name_ending_in_a_slash_names_a_folder_and_is_refused(league, tmp_path, store_bytes, args, option):
    """`-o reports/` (a folder not made yet) wrote a file named `reports`, as an existing folder is refused."""
    out = f"{tmp_path / 'reports'}{os.sep}"
    before = store_bytes()
    result = league(*(arg.format(out=out) for arg in args))
    assert result.exit_code == 2
    assert result.output.endswith(f"Error: Invalid value for {option}: {out!r} names a folder: name the file to write\n")
    assert not (tmp_path / "reports").exists()
    assert store_bytes() == before


@WRITES_A_FILE
def test_a_dash_for_standard_output_is_refused_not_written_as_a_file(league, tmp_path, monkeypatch, store_bytes, args, option):
    """`-o -` wrote a file named `-` where standard output was meant (the secret seed, for `seed export`)."""
    monkeypatch.chdir(tmp_path)
    before = store_bytes()
    result = league(*(arg.format(out="-") for arg in args))
    assert result.exit_code == 2
    assert result.output.endswith(f"Error: Invalid value for {option}: '-' would be a file named '-', not standard "
                                  "output: name the file to write (./- for that one)\n")
    assert not (tmp_path / "-").exists()
    assert store_bytes() == before
