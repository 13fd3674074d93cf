"""A trail is read line by line in time linear in its length, and a line longer than any a trail
holds (ledger.trail.LINE_LIMIT, 32 MiB) is refused once that much of it is read: `verify` and
`import` of /dev/zero ran for ever, and a 50 MB line without a newline took 41 s (the line read so
far was joined to each new chunk)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from benchmarks.run import PEAK
from ledger import trail as trails

TOO_LONG = "Error: line 1: longer than 33,554,432 bytes, which no line of a trail is: not a campaign-ledger trail\n"
COMMAND = [sys.executable, "-c", "from ledger.cli import main; main()"]


def campaign(*args: str, stdin=None) -> subprocess.CompletedProcess:
    """The real command, as its own process: one that never ends fails the test instead of hanging it."""
    return subprocess.run([*COMMAND, *args], stdin=stdin, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [["verify", "/dev/zero"], ["import", "/dev/zero"]], ids=["verify", "import"])
def test_dev_zero_is_refused_at_its_first_line(tmp_path, args):
    store = tmp_path / "imported.db"
    result = campaign("--store", f"sqlite:///{store}", *args)
    assert (result.returncode, result.stdout, result.stderr) == (3, "", TOO_LONG)
    assert not store.exists()


@pytest.mark.parametrize("args", [["verify", "-"], ["import", "-"]], ids=["verify", "import"])
def test_dev_zero_piped_in_is_refused_before_it_fills_the_disk(tmp_path, args):
    store = tmp_path / "imported.db"
    with open("/dev/zero", "rb") as zeros:
        result = campaign("--store", f"sqlite:///{store}", *args, stdin=zeros)
    assert (result.returncode, result.stdout, result.stderr) == (3, "", TOO_LONG)
    assert not store.exists()


def test_a_long_line_is_read_in_linear_time(cli, tmp_path, monkeypatch):
    """8 MB of one line, under the limit, read 1 KB at a time: joined once, it is read and refused as
    JSON at once; joined again at each chunk (32 GB copied) it took many seconds."""
    monkeypatch.setattr(trails, "READ_CHUNK", 1024)
    trail = tmp_path / "long.jsonl"
    trail.write_bytes(b"a" * 8_000_000 + b"\n")
    started = time.monotonic()
    result = cli("verify", str(trail))
    assert (result.exit_code, result.output) == (3, "Error: line 1: does not decode: Expecting value: line 1 column 1 (char 0)\n")
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("command", ["verify", "import"])
def test_a_line_over_the_limit_is_named_by_its_number(played, trail, monkeypatch, command):
    monkeypatch.setattr(trails, "LINE_LIMIT", 2000)  # the export's lines are shorter (the longest is the header)
    monkeypatch.setattr(trails, "READ_CHUNK", 100)  # as the real chunk is to the real limit: much shorter
    lines = trail.path.read_bytes().split(b"\n")
    assert max(map(len, lines)) < 2000
    lines[2] = b"x" * 2001
    trail.path.write_bytes(b"\n".join(lines))
    result = played(command, str(trail.path), store="imported.db")
    assert (result.exit_code, result.output) == (
        3, "Error: line 3: longer than 2,000 bytes, which no line of a trail is: not a campaign-ledger trail\n")
    assert not (played.folder / "imported.db").exists()


@pytest.mark.parametrize("data", [
    b"", b"\n", b"a", b"a\n", b"a\n\n", b"\n\na", b"ab\ncd\nef", b"abcdefgh\nij\n" * 3, b"a" * 20, b"a" * 19 + b"\n" + b"b" * 9,
])
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 16])
def test_the_lines_are_those_of_the_bytes_whatever_the_chunks(monkeypatch, data, chunk):
    """Each line without its newline, an empty line kept, the newline after the last optional."""
    monkeypatch.setattr(trails, "READ_CHUNK", chunk)
    expected = data.split(b"\n")
    if expected[-1] == b"":
        expected.pop()
    read = list(trails._TrailFile(data).raw_lines()) if expected else []
    assert read == list(enumerate(expected, start=1))


# A line of 30 MB (under LINE_LIMIT) of `{},{},…`: ten million JSON objects, which decoded took
# 880 MB before its refusal. Measured in the command's own process, at its exit, as the benchmarks measure
# it (VmHWM: ru_maxrss kept the test run's own high-water mark across the fork): memory, not time.
CROWDED = b"[" + b"{}," * 9_999_999 + b"{}]"


@pytest.mark.parametrize("line", [1, 2], ids=["header", "event"])
def test_a_line_of_ten_million_values_is_refused_before_it_is_decoded(played, trail, tmp_path, line):
    lines = trail.path.read_bytes().split(b"\n")
    lines[line - 1] = CROWDED
    hostile = tmp_path / "crowded.jsonl"
    hostile.write_bytes(b"\n".join(lines))
    result = subprocess.run([sys.executable, "-c", PEAK, "verify", str(hostile)], capture_output=True, text=True,
                            timeout=60)
    error, peak_kb = result.stderr.splitlines()
    assert (result.returncode, result.stdout, error) == (3, "", (
        f"Error: line {line}: holds 20,000,000 commas and opening brackets, more than 1,048,576, which no line of a "
        "trail holds (JSON values, each read into memory): not a campaign-ledger trail"))
    assert int(peak_kb) < 200_000


def test_a_crowded_line_is_named_by_its_number(played, trail, monkeypatch):
    monkeypatch.setattr(trails, "VALUES_LIMIT", 100)  # the export's lines hold fewer, the header too
    lines = trail.path.read_bytes().split(b"\n")
    counts = [line.count(b",") + line.count(b"{") + line.count(b"[") for line in lines]
    assert max(counts) <= 100
    lines[2] = b"[" + b"0," * 100 + b"0]"
    trail.path.write_bytes(b"\n".join(lines))
    result = played("import", str(trail.path), store="imported.db")
    assert (result.exit_code, result.output) == (3, (
        "Error: line 3: holds 101 commas and opening brackets, more than 100, which no line of a trail holds "
        "(JSON values, each read into memory): not a campaign-ledger trail\n"))
    assert not (played.folder / "imported.db").exists()
