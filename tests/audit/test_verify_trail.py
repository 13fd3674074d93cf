"""`campaign verify FILE` and the independent verifier (tests/independent_verifier.py, standard
library only) on an exported trail: both accept the export, and both reject every tampered copy
at the same line."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

VERIFIER = Path(__file__).resolve().parent.parent / "independent_verifier.py"
# What `verify FILE` says no trail can show, up to the way to check it (docs/audit-format.md, What a trail cannot show)
NOT_CHECKED = ("Not checked (no trail can show it): what a person typed (commands, answers, table dice), that a roll "
               "shown as table dice was not the ledger's, what each roll was for (a ledger die is derived from its "
               "roll's number alone), and that no event was cut off the end; rewritten so and rehashed, a trail has "
               "another head: ")


def independent(path: Path) -> subprocess.CompletedProcess:
    # -I -S: no site-packages and no project on the path, so the script can only use the standard library.
    return subprocess.run([sys.executable, "-I", "-S", str(VERIFIER), str(path)], capture_output=True, text=True)


def test_an_exported_trail_verifies_on_its_own(played, trail, campaign_id):
    result = played("verify", str(trail.path))
    assert (result.exit_code, result.output) == (0, (
        f"Hash chain intact: {trail.path}, campaign Demo ({campaign_id}), 25 events in 10 transactions.\n"
        "Ledger dice: 3 rolls re-derived from the revealed seed of epoch 0; "
        "1 roll of epoch 1 waits for its seed to be revealed.\n"
        f"{NOT_CHECKED}check it against a head noted earlier (--head HASH) or an earlier export (--extends OLD.jsonl).\n"
        f"Head {played.show()['head']}\n"
    ))


def test_a_trail_piped_in_verifies_and_imports(played, trail, campaign_id):
    """`campaign export | campaign verify -`: standard input that cannot be read twice is copied to
    a temporary file first (it was then read from its end: "the trail is empty")."""
    command = [sys.executable, "-c", "from ledger.cli import main; main()"]
    piped = subprocess.run([*command, "verify", "-"], input=trail.path.read_bytes(), capture_output=True, check=False)
    assert (piped.returncode, piped.stderr) == (0, b"")
    assert piped.stdout.decode().splitlines()[0] == f"Hash chain intact: <stdin>, campaign Demo ({campaign_id}), 25 events in 10 transactions."
    store = f"sqlite:///{played.folder / 'piped.db'}"
    imported = subprocess.run([*command, "--store", store, "import", "-"], input=trail.path.read_bytes(),
                              capture_output=True, check=False)
    assert (imported.returncode, imported.stderr) == (0, b"")
    assert imported.stdout.decode().endswith(f"Head {played.show()['head']}\n")


def test_the_independent_verifier_accepts_the_export(played, trail):
    result = independent(trail.path)
    assert (result.returncode, result.stdout, result.stderr) == (
        0, f"OK 25 events, head {played.show()['head']}, 3 ledger rolls re-derived, 1 awaiting a seed, 1 shuffles re-derived\n", ""
    )


def test_a_seed_given_in_the_trailer_makes_its_epoch_verifiable(played, trail):
    lines = trail.lines()
    lines[-1]["revealed_seeds"]["1"] = "02" * 32  # epoch 1's seed in the fixture, never revealed in the chain
    trail.write(lines)
    assert played("verify", str(trail.path)).output.splitlines()[1] == (
        "Ledger dice: 4 rolls re-derived from the revealed seeds of epoch 0, 1."
    )
    assert independent(trail.path).stdout.endswith(", 4 ledger rolls re-derived, 0 awaiting a seed, 1 shuffles re-derived\n")


def test_a_noted_head_is_checked_in_a_file_too(played, trail):
    noted = played.log()[19]["hash"]  # position 20, the head after the reroll
    result = played("verify", str(trail.path), "--head", noted[:12])
    assert result.output.splitlines()[-2] == "Head noted at position 20; 5 events were added since."
    # what no trail shows is said of the events after the noted head only
    assert result.output.splitlines()[2] == (
        NOT_CHECKED.replace("Not checked", "Not checked in the 5 events after position 20", 1)
        + "note this one to check the next export against.")
    assert json.loads(played("verify", str(trail.path), "--head", noted[:12], "--json").output)[
        "unanchored_after_position"] == 20


def test_a_trail_checked_against_its_own_head_leaves_nothing_unchecked(played, trail):
    result = played("verify", str(trail.path), "--head", played.show()["head"])
    assert "Not checked" not in result.output
    assert json.loads(played("verify", str(trail.path), "--head", played.show()["head"], "--json").output)[
        "unanchored_after_position"] is None


def test_an_empty_file_is_refused(played, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    result = played("verify", str(empty))
    assert (result.exit_code, result.output) == (2, "Error: the trail is empty\n")


# --- tampered copies ----------------------------------------------------------------------------------


def text_edit(line: int, old: str, new: str) -> Callable:
    def edit(trail) -> None:
        lines = trail.path.read_text(encoding="utf-8").split("\n")
        assert old in lines[line - 1]
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
        trail.path.write_text("\n".join(lines), encoding="utf-8")

    return edit


def json_edit(change: Callable[[list[dict]], None], *, rehash: bool = False) -> Callable:
    def edit(trail) -> None:
        lines = trail.lines()
        change(lines)
        trail.write(lines, rehash=rehash)

    return edit


def set_payload(line: int, **fields) -> Callable[[list[dict]], None]:
    return lambda lines: lines[line - 1]["payload"].update(fields)


EDITED = "stored hash does not match its record (the event was edited)"
VOIDED_BY_T6 = ('{"voided": {"reason": "typo in the dice", "voided_at": "2026-01-01T00:00:00.000000Z", '
                '"voided_by": 6, "voided_by_actor": "arbiter"}}')

# Line n of the file holds position n - 1: line 1 is the header, line 27 the trailer.
TAMPERING = {
    "a table die edited": (text_edit(9, '"faces":[3,5]', '"faces":[3,6]'), f"line 9: {EDITED}"),
    "an actor edited": (text_edit(12, '"actor":"arbiter"', '"actor":"mallory"'), f"line 12: {EDITED}"),
    "an event removed": (json_edit(lambda lines: lines.pop(8)),
                         "line 9: holds position 9 where position 8 was expected (an event was removed, added or moved)"),
    "two events swapped": (json_edit(lambda lines: lines.insert(9, lines.pop(8))),
                           "line 9: holds position 9 where position 8 was expected (an event was removed, added or moved)"),
    "a void hidden": (json_edit(lambda lines: lines[8].update(annotations={})),
                      f"line 9: its annotations are not what the chain says: {VOIDED_BY_T6}"),
    "the header renamed": (json_edit(lambda lines: lines[0]["campaign"].update(name="Other")),
                           'line 1: its campaign {"id": "0b0c0d0e-0000-4000-8000-000000000001", "name": "Other"} '
                           'is not the chain\'s {"id": "0b0c0d0e-0000-4000-8000-000000000001", "name": "Demo"}'),
    "the trailer's head changed": (json_edit(lambda lines: lines[-1].update(head="0" * 64)),
                                   "line 27: its head is not the hash of the last event"),
    "the trailer cut off": (json_edit(lambda lines: lines.pop()),
                            "line 27: the trailer line is missing (the trail was cut short)"),
    "the last events cut off": (json_edit(lambda lines: [lines.pop(-2) for _ in range(3)]),
                                "line 24: counts 25 events, the trail holds 22"),
    "a float": (text_edit(7, '"treasury":100', '"treasury":100.0'),
                "line 7: does not decode: 100.0 is not an integer (records hold integers only)"),
    "a key twice": (text_edit(3, '{"actor":"arbiter"', '{"actor":"mallory","actor":"arbiter"'),
                    "line 3: does not decode: key 'actor' appears twice"),
    "a key too many": (json_edit(lambda lines: lines[3].update(signed_by="arbiter")),
                       "line 4: does not decode: unexpected signed_by"),
    "a face of the wrong type": (text_edit(9, '"faces":[3,5]', '"faces":["3",5]'),
                                 "line 9: does not decode: Expected `int`, got `str` - at `$.faces[0]`"),
    "not JSON": (text_edit(5, "{", "garbage{"), "line 5: does not decode: Expecting value: line 1 column 1 (char 0)"),
    "a ledger die's epoch taken out and rehashed": (json_edit(lambda lines: lines[10]["payload"].pop("epoch"), rehash=True),
                                                   "line 11: roll R1: ledger dice of no epoch, but the epoch with a "
                                                   "secret committed seed is 0"),
    "a ledger die forged and rehashed": (json_edit(set_payload(11, faces=[1], value=1), rehash=True),
                                         "line 11: ledger roll R1 shows [1], but the revealed seed of epoch 0 gives [6]"),
    "a shuffle die forged and rehashed": (
        json_edit(lambda lines: lines[12]["payload"]["faces"].__setitem__(0, 1), rehash=True),
        "line 13: ledger roll R2 shows [1, "),  # the rest lists the 51 faces of the shuffle
    "a revealed seed forged and rehashed": (json_edit(set_payload(23, seed="02" * 32), rehash=True),
                                            "line 23: the seed of epoch 0 does not match its commitment (line 5)"),
    "a seed in the trailer wrong": (json_edit(lambda lines: lines[-1]["revealed_seeds"].update({"0": "02" * 32})),
                                    "line 27: the seed of epoch 0 does not match its commitment (line 5)"),
    "a trailer's epoch not a number": (json_edit(lambda lines: lines[-1]["revealed_seeds"].update({"²": "02" * 32})),
                                       "line 27: 'revealed_seeds' must map epochs ('0', '1', …) to seeds"),
    # The ledger roll R1 (line 11) made a copy of itself, or of the table roll R0, its faces forged: no seed derives a copy
    "a ledger die forged as a copy of itself": (json_edit(set_payload(11, faces=[1], value=1, copy_of=1), rehash=True),
                                               "line 11: roll R1 claims to copy R1, which is not an earlier roll"),
    "a ledger die forged as a copy of a table die": (
        json_edit(set_payload(11, expression="2D6", faces=[3, 5], value=8, purpose="injury", copy_of=0), rehash=True),
        "line 11: roll R1 copies R0, but T4 decides no transaction holding it again: only the transactions right "
        "after a void, reroll or answer keep dice"),
    # The reroll's new die (R3, line 21) made a copy of the die it replaced (R1, line 11): the same purpose, faces and epoch
    "a rerolled die forged back into a copy of the disputed one": (
        json_edit(set_payload(21, faces=[6], value=6, copy_of=1), rehash=True),
        "line 21: roll R3 copies R1, the roll T7 disputed: a reroll rolls it anew"),
    # JSON's false is no 0 (Python's is): the roll number of R0, and an epoch, given as false
    "a roll number false and rehashed": (json_edit(set_payload(9, roll=False), rehash=True),
                                         "line 9: does not decode: Expected `int`, got `bool` - at `$.roll`"),
    "an epoch false and rehashed": (json_edit(set_payload(5, epoch=False), rehash=True),
                                    "line 5: does not decode: Expected `int`, got `bool` - at `$.epoch`"),
    "a roll renumbered and rehashed": (json_edit(set_payload(21, roll=5), rehash=True),
                                       "line 21: roll R5 where R3 was expected (roll numbers have no gaps)"),
    "a transaction skipped and rehashed": (json_edit(lambda lines: lines[6].update(tx=4), rehash=True),
                                           "line 7: transaction 4 follows transaction 2 "
                                           "(transactions are numbered from 1 without gaps)"),
}


@pytest.mark.parametrize(("tamper", "problem"), TAMPERING.values(), ids=TAMPERING.keys())
def test_a_tampered_trail_is_refused_at_its_first_bad_line_by_both_verifiers(played, trail, tamper, problem):
    tamper(trail)
    result = played("verify", str(trail.path))
    assert result.exit_code == 3
    assert result.output.startswith(f"Error: {problem}")
    line = re.match(r"line (\d+):", problem).group(1)
    other = independent(trail.path)
    assert (other.returncode, other.stdout.split(":")[0]) == (1, f"FAIL line {line}")


def test_the_independent_verifier_uses_only_the_standard_library_modules_it_may():
    tree = ast.parse(VERIFIER.read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"hashlib", "hmac", "json", "sys"}
