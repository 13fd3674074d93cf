"""A PostgreSQL league server where players cannot read the dice seeds (issue #7, attack 2).

`campaign admin init-roles` makes a dice role (owns the seeds, the record of dealt dice and the
functions that deal faces) and a player role. Connected as the player: `select * from` the seeds is
refused, ledger dice roll, a face fetched by hand is recorded as dealt and burned by the next roll,
a face cannot be read inside a transaction that could be rolled back, and after `seed reveal` the
independent verifier re-derives every ledger die from the trail alone.

A player may neither reveal a seed (the seed would be shown before the campaign's history could
record its reveal: the league's administrator reveals) nor open an epoch ahead; an epoch revealed
outside the history (by hand, or a reveal that stopped before it was stored) is named, with the way
out; a ledger roll written into the store by hand, never dealt, fails `verify`; and `init-roles`
run again upgrades a server set up by an older version."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

import pytest

from ledger.testing import CampaignRunner

pytestmark = pytest.mark.postgres
VERIFIER = Path(__file__).resolve().parent.parent / "independent_verifier.py"


def connect(url: str, **options):
    import psycopg

    parsed = urlparse(url)
    return psycopg.connect(host=parsed.hostname, port=parsed.port or 5432, user=parsed.username or "postgres",
                           dbname=parsed.path.strip("/"), connect_timeout=3, **options)


def as_role(url: str, role: str) -> str:
    parsed = urlparse(url)
    return urlunparse(parsed._replace(netloc=f"{role}@{parsed.hostname}:{parsed.port or 5432}"))


@pytest.fixture
def league(postgres_database):
    """(administrator's URL, player's URL, player role) on an empty database, roles made by init-roles."""
    suffix = uuid.uuid4().hex[:8]
    player, dice = f"player_{suffix}", f"dice_{suffix}"
    with connect(postgres_database, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    admin = CampaignRunner(postgres_database)
    made = admin("admin", "init-roles", "--player", player, "--dice-role", dice)
    assert (made.exit_code, made.output) == (0, (
        f"Roles ready on {postgres_database}: {dice} owns the dice seeds and deals the faces; {player} rolls "
        "ledger dice and records events, and cannot read a seed.\n"
    ))
    yield postgres_database, as_role(postgres_database, player), player
    with connect(postgres_database, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")  # the tables made for the league: others expect none
        conn.execute("CREATE SCHEMA public")
        conn.execute(f'DROP OWNED BY "{player}", "{dice}" CASCADE')
        conn.execute(f'DROP ROLE "{player}"')
        conn.execute(f'DROP ROLE "{dice}"')


def test_a_player_rolls_ledger_dice_but_cannot_read_a_seed(league, tmp_path):
    import psycopg

    admin_url, player_url, player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    rolled = campaign("roll", "2D6", "--for", "loot", "--ledger")
    assert rolled.exit_code == 0, rolled.output
    with connect(player_url, autocommit=True) as conn:
        for table in ("ledger_dice_seeds", "ledger_dice_dealt"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"SELECT * FROM {table}")
    assert campaign("verify").exit_code == 0


def test_a_face_fetched_by_hand_is_recorded_and_burned_by_the_next_roll(league, tmp_path):
    _admin_url, player_url, player = league
    campaign = CampaignRunner(player_url)
    created = campaign("new", "League")
    assert created.exit_code == 0, created.output
    shown = campaign("show", "--json")
    assert shown.exit_code == 0, shown.output
    show = json.loads(shown.output)
    campaign_id, commitment = show["campaign_id"], json.loads(campaign("log", "--json").output)
    commitment = next(row for row in commitment if row["type"] == "seed.committed")["text"]
    exported = campaign("export")
    assert exported.exit_code == 0, exported.output
    committed = json.loads(exported.output.splitlines()[4])["payload"]["commitment"]

    # Inside a transaction that could be rolled back, the face dealt cannot be read.
    with connect(player_url) as conn:
        assert conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, ARRAY[6], 'D6', 'a peek')",
                            (campaign_id, committed)).fetchone()[0]
        assert conn.execute("SELECT ledger_dice_faces(%s, 0, 0)", (campaign_id,)).fetchone()[0] is None
        conn.rollback()
    # Alone in its transaction it is dealt, and the face can be read only once that is committed.
    with connect(player_url, autocommit=True) as conn:
        assert conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, ARRAY[6], 'D6', 'a peek')",
                            (campaign_id, committed)).fetchone()[0]
        peeked = conn.execute("SELECT ledger_dice_faces(%s, 0, 0)", (campaign_id,)).fetchone()[0]
    verified = campaign("verify")
    assert verified.exit_code == 0
    lines = [line for line in verified.output.splitlines() if line.startswith("Dealt but not recorded")]
    assert len(lines) == 1 and lines[0].startswith(f"Dealt but not recorded: R0 (epoch 0) to {player} at ")

    rolled = campaign("roll", "D6", "--for", "the real roll", "--ledger")
    assert rolled.exit_code == 0, rolled.output
    burned, real = rolled.output.splitlines()[:2]
    assert burned.startswith(f"  R0 burned: dealt to {player} at ") and burned.endswith(f"never recorded: D6 rolled {peeked} = {peeked[0]} (ledger)")
    assert real.startswith("  R1 the real roll: D6 rolled ")
    assert "Dealt but not recorded" not in campaign("verify").output

    assert CampaignRunner(_admin_url)("seed", "reveal").exit_code == 0  # the administrator's (below)
    trail = tmp_path / "trail.jsonl"
    assert campaign("export", "-o", str(trail)).exit_code == 0
    result = subprocess.run([sys.executable, str(VERIFIER), str(trail)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
    assert ", 2 ledger rolls re-derived, 0 awaiting a seed, " in result.stdout
    assert commitment  # the log shows the commitment the player can check the reveal against


def peek(player_url: str, campaign_id: str, commitment: str, epoch: int, roll: int) -> list[int]:
    """A roll number dealt by hand, as a player calling the dice function would: its faces."""
    with connect(player_url, autocommit=True) as conn:
        assert conn.execute("SELECT ledger_dice_deal(%s, %s, %s, %s, ARRAY[6], 'D6', 'a peek')",
                            (campaign_id, epoch, commitment, roll)).fetchone()[0]
        return conn.execute("SELECT ledger_dice_faces(%s, %s, %s)", (campaign_id, epoch, roll)).fetchone()[0]


def dealt_lines(campaign: CampaignRunner) -> list[str]:
    """What `verify` says of the numbers dealt and not recorded: each line after its dealing's time."""
    verified = campaign("verify")
    assert verified.exit_code == 0, verified.output
    return [line.split("Z; ", 1)[0].split(" at ")[0] + "; " + line.split("Z; ", 1)[1]
            for line in verified.output.splitlines() if line.startswith("Dealt but not recorded")]


def test_a_reroll_after_a_peek_burns_the_number_and_rolls_after_it(league):
    """A reroll with ledger dice used to find the peeked number dealt on every try and fail ("the
    campaign kept changing while rerolling"): it is recorded as burned first, as a command does."""
    admin_url, player_url, player = league
    campaign, _admin, campaign_id, commitment = a_ledger_roll_in_a_new_campaign(player_url, admin_url)
    peeked = peek(player_url, campaign_id, commitment, 0, 1)
    result = campaign("reroll", "R0", "--reason", "the die fell off the table", "--ledger")
    assert result.exit_code == 0, result.output
    burned = result.output.splitlines()[0]
    assert burned.startswith(f"  R1 burned: dealt to {player} at ")
    assert burned.endswith(f"never recorded: D6 rolled {peeked} = {peeked[0]} (ledger)")
    assert "  R2 loot: D6 rolled " in result.output
    assert dealt_lines(campaign) == []
    assert campaign("replay", "--check").output == "Re-decided 1 transaction from its command and dice: all match.\n"


def test_the_report_and_the_chronicle_head_a_burn_in_words(league, tmp_path):
    """Nobody types a burn: the ledger records it before the next command. Its transaction was headed by
    the ledger's own name for it, 'dice.burn', where every other is headed by its command as typed."""
    # Given a number dealt by hand and burned by the next roll (T2, before the roll's T3),
    _admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    peek(player_url, *campaign_and_commitment(campaign), 0, 0)
    assert campaign("roll", "D6", "--for", "the real roll", "--ledger").exit_code == 0
    # when the report and the Markdown chronicle are written,
    assert campaign("report", "-o", str(tmp_path / "r.html")).exit_code == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    chronicle = campaign("export", "--format", "md").output
    # then the burn is headed by what happened, in words, and the roll by its command.
    assert '<div class="tx-head">T2 · dice burned (dealt but never recorded) · by ledger · <time' in html
    assert '<div class="tx-head">T3 · <code>campaign roll</code> · by ' in html
    assert "\n- T2 dice burned (dealt but never recorded) by ledger, " in chronicle
    assert "\n- T3 `campaign roll` by " in chronicle


def test_verify_says_what_becomes_of_each_number_dealt_and_not_recorded(league):
    """The next command burns the numbers dealt from the next one on; a number further on is burned
    when the rolls reach it; one of an epoch revealed since is never used (its number is dealt afresh
    from the next epoch's seed)."""
    admin_url, player_url, player = league
    campaign, admin, campaign_id, commitment = a_ledger_roll_in_a_new_campaign(player_url, admin_url)
    peek(player_url, campaign_id, commitment, 0, 3)
    assert dealt_lines(campaign) == [
        f"Dealt but not recorded: R3 (epoch 0) to {player}; burned when the campaign's rolls reach R3."]
    peek(player_url, campaign_id, commitment, 0, 1)
    peek(player_url, campaign_id, commitment, 0, 2)
    assert dealt_lines(campaign) == [
        f"Dealt but not recorded: R1 (epoch 0) to {player}; the next command burns it.",
        f"Dealt but not recorded: R2 (epoch 0) to {player}; the next command burns it.",
        f"Dealt but not recorded: R3 (epoch 0) to {player}; the next command burns it.",
    ]
    peek(player_url, campaign_id, commitment, 0, 5)
    assert admin("seed", "reveal").exit_code == 0
    assert dealt_lines(campaign) == [
        f"Dealt but not recorded: R1 (epoch 0) to {player}; never used: epoch 0 is closed.",
        f"Dealt but not recorded: R2 (epoch 0) to {player}; never used: epoch 0 is closed.",
        f"Dealt but not recorded: R3 (epoch 0) to {player}; never used: epoch 0 is closed.",
        f"Dealt but not recorded: R5 (epoch 0) to {player}; never used: epoch 0 is closed.",
    ]


def test_a_number_dealt_that_the_campaign_recorded_as_table_dice_for_the_same_purpose_is_named_so(league):
    """A ledger roll relabelled as table dice in the store leaves its number dealt here and not recorded, as a
    table roll that took the number while a ledger roll was being dealt it does: verify said "never used:
    the campaign's R1 was recorded without it", which read like the race alone. Given R1 rolled at the
    table as a D6 for 'a peek', then dealt here for the same: verify says both readings."""
    admin_url, player_url, player = league
    campaign, _admin, campaign_id, commitment = a_ledger_roll_in_a_new_campaign(player_url, admin_url)
    assert campaign("roll", "D6", "--for", "a peek", "--dice", "4").exit_code == 0  # R1, at the table
    faces = peek(player_url, campaign_id, commitment, 0, 1)
    alike = ", with the very faces dealt here" if faces == [4] else ""
    assert dealt_lines(campaign) == [
        f"Dealt but not recorded: R1 (epoch 0) to {player}; never used: the campaign's R1 was recorded without it, "
        f"as table dice of D6 for 'a peek', what it was dealt for{alike}: a command that took the number while it was "
        "dealt, or a ledger roll relabelled as table dice in the store."]
    assert campaign("roll", "D6", "--for", "another", "--dice", "2").exit_code == 0  # R2, for something else
    peek(player_url, campaign_id, commitment, 0, 2)
    assert dealt_lines(campaign)[1] == (
        f"Dealt but not recorded: R2 (epoch 0) to {player}; never used: the campaign's R2 was recorded without it.")


def campaign_and_commitment(campaign: CampaignRunner) -> tuple[str, str]:
    shown = campaign("show", "--json")
    assert shown.exit_code == 0, shown.output
    exported = campaign("export")
    assert exported.exit_code == 0, exported.output
    committed = next(json.loads(line) for line in exported.output.splitlines() if '"seed.committed"' in line)
    return json.loads(shown.output)["campaign_id"], committed["payload"]["commitment"]


NO_PLAYERS_REVEAL = (
    "Error: role {player} may not reveal a dice seed: on a league server the seed is revealed by its administrator "
    "(`campaign --store postgresql://ADMIN@HOST/DB seed reveal`), since a player who could reveal one could read it "
    "without the reveal being recorded\n"
)


def a_ledger_roll_in_a_new_campaign(player_url: str, admin_url: str) -> tuple[CampaignRunner, CampaignRunner, str, str]:
    """A campaign a player started and rolled a ledger die in: the player's runner and the
    administrator's, the campaign's id and its epoch 0 commitment."""
    campaign, admin = CampaignRunner(player_url), CampaignRunner(admin_url)
    assert campaign("new", "League").exit_code == 0
    assert campaign("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    return campaign, admin, *campaign_and_commitment(campaign)


def revealed_outside(epoch: int, shown: str) -> str:
    return (f"Error: the seed of epoch {epoch} was revealed{shown}, but the campaign's history has no record of it, "
            "so no ledger die is dealt from it any more: `campaign seed reveal` records the reveal and opens epoch "
            f"{epoch + 1} (on a league server its administrator runs it); table dice (--dice) roll meanwhile\n")


def test_a_player_may_not_reveal_a_seed_nor_open_an_epoch_and_a_reveal_never_recorded_is_named(league):
    import psycopg

    admin_url, player_url, player = league
    campaign, admin, campaign_id, commitment = a_ledger_roll_in_a_new_campaign(player_url, admin_url)
    with connect(player_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT ledger_dice_reveal(%s, 0, %s)", (campaign_id, commitment))
        with pytest.raises(psycopg.Error) as refused:
            conn.execute("SELECT ledger_dice_commit(%s, 1)", (campaign_id,))
        assert refused.value.sqlstate == "P0006"
        assert refused.value.diag.message_primary == (
            f"epoch 1 of campaign {campaign_id} is committed only once epoch 0 is revealed (`campaign seed reveal`)")
        # Epoch 0 of this campaign was committed by `campaign new`: asked again, the same commitment.
        assert conn.execute("SELECT ledger_dice_commit(%s, 0)", (campaign_id,)).fetchone()[0] == commitment
    refused = campaign("seed", "reveal")
    assert (refused.exit_code, refused.output) == (1, NO_PLAYERS_REVEAL.format(player=player))
    rolled = campaign("roll", "D6", "--for", "more loot", "--ledger")
    assert rolled.exit_code == 0, rolled.output  # nothing was revealed: the epoch deals on

    # The administrator's reveal that stopped before it was stored (here: called by hand) is named,
    # who and when, with the way out, which the administrator takes.
    with connect(admin_url, autocommit=True) as conn:
        conn.execute("SELECT ledger_dice_reveal(%s, 0, %s)", (campaign_id, commitment))
        (when,) = conn.execute("SELECT to_char(revealed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') "
                               "FROM ledger_dice_seeds WHERE campaign_id = %s AND epoch = 0", (campaign_id,)).fetchone()
    blocked = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert (blocked.exit_code, blocked.output) == (1, revealed_outside(0, f" to postgres at {when}"))
    verified = campaign("verify")  # the chain holds, and says why its dice stopped
    assert verified.exit_code == 0, verified.output
    assert ("Epoch 0: its seed was revealed in this database, but the campaign's history has no record of it, so no "
            "ledger die is dealt from it any more: `campaign seed reveal` records the reveal and opens epoch 1 (the "
            "league's administrator runs it).\n") in verified.output
    assert json.loads(campaign("verify", "--json").output)["revealed_outside_history"] == [0]
    revealed = admin("seed", "reveal")
    assert revealed.exit_code == 0, revealed.output
    rolled = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert rolled.exit_code == 0, rolled.output
    assert rolled.output.startswith("  R2 loot: D6 rolled ")
    with connect(player_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT ledger_dice_reveal(%s, 1, %s)", (campaign_id, "0" * 64))
        with pytest.raises(psycopg.Error, match="epoch 2 of campaign .* is committed only once epoch 1 is revealed"):
            conn.execute("SELECT ledger_dice_commit(%s, 2)", (campaign_id,))
    verified = campaign("verify")
    assert verified.exit_code == 0, verified.output
    assert "Ledger dice: 2 rolls re-derived from the revealed seed of epoch 0; 1 roll of epoch 1 waits" in verified.output
    assert "its seed was revealed in this database" not in verified.output  # the history records it now


def forge_ledger_roll(player_url: str, campaign: CampaignRunner, roll: int, faces: list[int]) -> int:
    """What a player may do by hand: append a roll transaction, hash-chained, to the events' table.
    Returns the position of its dice.rolled event."""
    from ledger import events as ev
    from ledger.records import Record, hash_body, record_body
    from ledger.store import encode_record

    lines = campaign("export").output.splitlines()
    last = json.loads(lines[-2])
    campaign_id = json.loads(campaign("show", "--json").output)["campaign_id"]
    tx, prev, at = last["tx"] + 1, last["hash"], last["recorded_at"]
    events = [ev.CommandRecorded(command="roll", args={"answers": {}, "expression": "D6", "purpose": "loot"}),
              ev.DiceRolled(roll=roll, expression="D6", purpose="loot", faces=faces, value=sum(faces),
                            source="ledger", epoch=0)]
    rows = []
    for position, event in enumerate(events, start=last["position"] + 1):
        body = record_body(position=position, event=event, recorded_at=at, actor="arbiter", tx=tx, prev_hash=prev)
        prev = hash_body(body)
        record = Record(position=position, tx=tx, actor="arbiter", recorded_at=at, prev_hash=body["prev_hash"],
                        hash=prev, event=event)
        rows.append((uuid.UUID(campaign_id), position, ev.tag_of(event), encode_record(record)))
    with connect(player_url) as conn:
        conn.cursor().executemany("INSERT INTO campaignledger_events (originator_id, originator_version, topic, state) "
                                  "VALUES (%s, %s, %s, %s)", rows)
    return last["position"] + 2


def test_a_ledger_roll_written_into_the_store_by_hand_fails_verify(league):
    _admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    position = forge_ledger_roll(player_url, campaign, 0, [6])
    verified = campaign("verify")
    assert (verified.exit_code, verified.output) == (3, (
        f"Error: position {position}: ledger roll R0 (epoch 0) was never dealt by the database's dice role: it was "
        "written into the store, not rolled; the store was edited\n"))
    assert campaign("verify", "--json").exit_code == 3


def test_a_ledger_roll_stored_with_faces_other_than_those_dealt_fails_verify(league):
    _admin_url, player_url, player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    campaign_id, commitment = campaign_and_commitment(campaign)
    with connect(player_url, autocommit=True) as conn:  # dealt, and read, by hand
        assert conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, ARRAY[6], 'D6', 'loot')",
                            (campaign_id, commitment)).fetchone()[0]
        (dealt,) = conn.execute("SELECT ledger_dice_faces(%s, 0, 0)", (campaign_id,)).fetchone()
    wanted = [dealt[0] % 6 + 1]
    position = forge_ledger_roll(player_url, campaign, 0, wanted)
    verified = campaign("verify")
    assert (verified.exit_code, verified.output) == (3, (
        f"Error: position {position}: ledger roll R0 (epoch 0) shows D6 {wanted}, but the database's dice role "
        f"dealt it D6 {dealt}; the store was edited\n"))


def test_a_ledger_roll_dealt_for_one_purpose_and_stored_for_another_fails_verify(league):
    """The face of a roll dealt by hand is read before deciding what to use it for: a roll stored for
    anything but what it was dealt for fails verify, also once the seed is revealed."""
    admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    campaign_id, commitment = campaign_and_commitment(campaign)
    with connect(player_url, autocommit=True) as conn:
        assert conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, ARRAY[6], 'D6', 'injury')",
                            (campaign_id, commitment)).fetchone()[0]
        (dealt,) = conn.execute("SELECT ledger_dice_faces(%s, 0, 0)", (campaign_id,)).fetchone()
    position = forge_ledger_roll(player_url, campaign, 0, dealt)  # seen first, then stored as the loot roll
    refusal = (3, f"Error: position {position}: ledger roll R0 (epoch 0) is stored as D6 for 'loot', but the "
                  "database's dice role dealt it as D6 for 'injury'; the store was edited\n")
    verified = campaign("verify")
    assert (verified.exit_code, verified.output) == refusal
    assert CampaignRunner(admin_url)("seed", "reveal").exit_code == 0
    verified = campaign("verify")
    assert (verified.exit_code, verified.output) == refusal


# How an older version dealt: its deal was bound to no expression nor purpose (a stand-in with its
# signature), and its list of dealt rolls did not show them.
OLDER_DEALING = """
DROP FUNCTION ledger_dice_deal(text, integer, text, integer, integer[], text, text);
DROP FUNCTION ledger_dice_dealt(text, integer);
ALTER TABLE ledger_dice_dealt DROP COLUMN expression, DROP COLUMN purpose;
CREATE FUNCTION ledger_dice_deal(p_campaign text, p_epoch integer, p_commitment text, p_roll integer,
                                 p_sides integer[]) RETURNS boolean
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$ SELECT false $$;
CREATE FUNCTION ledger_dice_dealt(p_campaign text, p_from_roll integer)
RETURNS TABLE (roll integer, epoch integer, sides integer[], faces integer[], dealt_to text, dealt_at text)
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT roll, epoch, sides, faces, dealt_to, to_char(dealt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
    FROM ledger_dice_dealt
    WHERE campaign_id = p_campaign AND roll >= p_from_roll AND dealt_xact <> txid_current()
    ORDER BY epoch, roll
$$
"""


def upgraded_by_init_roles_again(campaign: CampaignRunner, admin: CampaignRunner, player: str, dice: str) -> None:
    """A player's command is refused on the older functions, until the administrator's init-roles upgrades them."""
    older = campaign("verify")
    assert (older.exit_code, older.output) == (1, (
        "Error: the ledger dice functions of this PostgreSQL database are an older version's, and this role may not "
        "replace them: ask the league's administrator to run `campaign admin init-roles` again\n"))
    again = admin("admin", "init-roles", "--player", player, "--dice-role", dice)
    assert again.exit_code == 0, again.output


def make_dealing_older(url: str, dice: str | None = None, player: str | None = None) -> None:
    """The server as an older version left it, its rolls dealt so far recorded without a purpose."""
    with connect(url, autocommit=True) as conn:
        conn.execute(OLDER_DEALING)
        for function in ("ledger_dice_deal(text, integer, text, integer, integer[])", "ledger_dice_dealt(text, integer)"):
            if dice:
                conn.execute(f'ALTER FUNCTION {function} OWNER TO "{dice}"')
            if player:
                conn.execute(f'GRANT EXECUTE ON FUNCTION {function} TO "{player}"')


def test_init_roles_run_again_binds_deals_to_their_purpose_and_older_rolls_still_verify(league):
    import psycopg

    admin_url, player_url, player = league
    campaign, admin, campaign_id, commitment = a_ledger_roll_in_a_new_campaign(player_url, admin_url)
    with connect(admin_url, autocommit=True) as conn:
        dice = conn.execute("SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE proname = 'ledger_dice_deal'").fetchone()[0]
    make_dealing_older(admin_url, dice, player)
    upgraded_by_init_roles_again(campaign, admin, player, dice)
    with connect(player_url, autocommit=True) as conn:  # the unbound deal is gone
        with pytest.raises(psycopg.errors.UndefinedFunction):
            conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 5, ARRAY[6])", (campaign_id, commitment))
    verified = campaign("verify")  # R0, dealt before deals were bound to a purpose
    assert verified.exit_code == 0, verified.output
    assert campaign("roll", "D6", "--for", "more loot", "--ledger").exit_code == 0
    with connect(admin_url, autocommit=True) as conn:
        assert conn.execute("SELECT roll, expression, purpose FROM ledger_dice_dealt ORDER BY roll").fetchall() == [
            (0, None, None), (1, "D6", "more loot")]
    verified = campaign("verify")
    assert verified.exit_code == 0, verified.output


def test_a_single_user_server_binds_deals_to_their_purpose_on_first_use(fresh_postgres):
    admin_url = fresh_postgres
    campaign = CampaignRunner(admin_url)  # no init-roles: whoever opens the store owns the dice
    assert campaign("new", "League").exit_code == 0
    assert campaign("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    make_dealing_older(admin_url)
    verified = campaign("verify")
    assert verified.exit_code == 0, verified.output
    assert campaign("roll", "D6", "--for", "more loot", "--ledger").exit_code == 0
    with connect(admin_url, autocommit=True) as conn:
        assert conn.execute("SELECT roll, expression, purpose FROM ledger_dice_dealt ORDER BY roll").fetchall() == [
            (0, None, None), (1, "D6", "more loot")]
    assert campaign("verify").exit_code == 0


# How an older version set the dice up: the player could reveal, nothing kept who revealed, and no
# function told which epochs the database holds.
OLDER_REVEAL = """
CREATE OR REPLACE FUNCTION ledger_dice_reveal(p_campaign text, p_epoch integer, p_commitment text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE k bytea;
BEGIN
    k := ledger_dice_seed(p_campaign, p_epoch, p_commitment);
    UPDATE ledger_dice_seeds SET revealed = true WHERE campaign_id = p_campaign AND epoch = p_epoch;
    RETURN encode(k, 'hex');
END $$
"""


def test_init_roles_run_again_upgrades_an_older_league_server(league):
    import psycopg

    admin_url, player_url, player = league
    campaign, admin = CampaignRunner(player_url), CampaignRunner(admin_url)
    assert campaign("new", "League").exit_code == 0
    campaign_id, commitment = campaign_and_commitment(campaign)
    with connect(admin_url, autocommit=True) as conn:
        dice = conn.execute("SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE proname = 'ledger_dice_reveal'").fetchone()[0]
        conn.execute("DROP FUNCTION ledger_dice_epochs(text)")
        conn.execute("ALTER TABLE ledger_dice_seeds DROP COLUMN revealed_to, DROP COLUMN revealed_at")
        conn.execute(OLDER_REVEAL)
        conn.execute(f'ALTER FUNCTION ledger_dice_reveal(text, integer, text) OWNER TO "{dice}"')
        conn.execute(f'GRANT EXECUTE ON FUNCTION ledger_dice_reveal(text, integer, text) TO "{player}"')
    make_dealing_older(admin_url, dice, player)
    with connect(player_url, autocommit=True) as conn:  # the hole of the older version
        seed = conn.execute("SELECT ledger_dice_reveal(%s, 0, %s)", (campaign_id, commitment)).fetchone()[0]
    assert re.fullmatch("[0-9a-f]{64}", seed)
    upgraded_by_init_roles_again(campaign, admin, player, dice)
    with connect(player_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT ledger_dice_reveal(%s, 0, %s)", (campaign_id, commitment))
    assert campaign("seed", "reveal").output == NO_PLAYERS_REVEAL.format(player=player)
    blocked = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert (blocked.exit_code, blocked.output) == (1, revealed_outside(0, ""))
    assert admin("seed", "reveal").exit_code == 0
    assert campaign("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    verified = campaign("verify")
    assert verified.exit_code == 0, verified.output


def test_a_second_player_role_leaves_the_first_its_rights(league):
    """init-roles for another player (or run again after an upgrade, as the README says) made the list
    of dealt dice again, and only the role it named kept the right to call it: every other player's
    write and verify was refused."""
    admin_url, player_url, player = league
    second, dice = f"player_{uuid.uuid4().hex[:8]}", player.replace("player_", "dice_")  # the league's dice role
    assert CampaignRunner(admin_url)("admin", "init-roles", "--player", second, "--dice-role", dice).exit_code == 0
    try:
        campaign = CampaignRunner(player_url)
        assert campaign("new", "League").exit_code == 0
        rolled = campaign("roll", "D6", "--for", "loot", "--ledger")
        assert rolled.exit_code == 0, rolled.output
        assert campaign("verify").exit_code == 0
        assert CampaignRunner(as_role(admin_url, second))("--campaign", "League", "roll", "D6", "--for", "x",
                                                         "--ledger").exit_code == 0
    finally:
        with connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{second}" CASCADE')
            conn.execute(f'DROP ROLE "{second}"')


def test_an_upgrade_of_an_older_server_leaves_every_player_role_its_rights(league):
    """Upgrading from a version whose dealing functions had other signatures makes them anew, and a
    function made anew kept EXECUTE for the role init-roles named alone: the league's other players
    could no longer roll, verify, or write at all."""
    admin_url, player_url, player = league
    second, dice = f"player_{uuid.uuid4().hex[:8]}", player.replace("player_", "dice_")
    admin = CampaignRunner(admin_url)
    assert admin("admin", "init-roles", "--player", second, "--dice-role", dice).exit_code == 0
    try:
        make_dealing_older(admin_url, dice, player)
        with connect(admin_url, autocommit=True) as conn:
            for function in ("ledger_dice_deal(text, integer, text, integer, integer[])", "ledger_dice_dealt(text, integer)"):
                conn.execute(f'GRANT EXECUTE ON FUNCTION {function} TO "{second}"')
        assert admin("admin", "init-roles", "--player", player, "--dice-role", dice).exit_code == 0  # the upgrade
        other = CampaignRunner(as_role(admin_url, second))
        assert other("new", "League").exit_code == 0
        rolled = other("roll", "D6", "--for", "loot", "--ledger")
        assert rolled.exit_code == 0, rolled.output
        assert other("verify").exit_code == 0
    finally:
        with connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{second}" CASCADE')
            conn.execute(f'DROP ROLE "{second}"')


def test_the_administrator_s_full_rebuild_leaves_the_players_their_read_models(league):
    """`campaign rebuild` drops the read-model tables and makes them again: the players lost the rights
    init-roles gave them on those tables, and every write warned, every verify failed."""
    admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    assert CampaignRunner(admin_url)("rebuild").exit_code == 0
    noted = campaign("note", "after the rebuild")
    assert (noted.exit_code, "Warning" in noted.output) == (0, False), noted.output
    assert campaign("verify").exit_code == 0


@pytest.mark.parametrize("sides", ["{2,5}", "{1}", "{6,NULL}", "{%s}" % ",".join(["6"] * 201)])
def test_dice_no_roll_deals_are_not_dealt(league, sides):
    """A player may call the dealing function by hand: dice of sides no roll has (a D6 and a D2 not
    a shuffle's, 201 dice) were dealt, and the next roll burned them as dice no expression rolls: a
    burn that failed verify for ever, or a roll number no command could get past."""
    import psycopg

    _admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    campaign_id = json.loads(campaign("show", "--json").output)["campaign_id"]
    committed = json.loads(campaign("export").output.splitlines()[4])["payload"]["commitment"]
    with connect(player_url, autocommit=True) as conn, pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute(f"SELECT ledger_dice_deal(%s, 0, %s, 0, '{sides}'::integer[], 'D6', 'a forgery')", (campaign_id, committed))
    assert campaign("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    assert campaign("roll", "100D66", "--for", "every die a roll may have: 200", "--ledger").exit_code == 0
    assert campaign("verify").exit_code == 0


def moved_from_sqlite(player_url: str, tmp_path: Path) -> tuple[CampaignRunner, Any]:
    """A campaign started in a SQLite store, a ledger die rolled there (epoch 0, committed in its key
    file), and its trail imported into the league server by a player: (the player's runner, the import)."""
    home = CampaignRunner("sqlite:///" + str(tmp_path / "home.db"))
    assert home("new", "Moved").exit_code == 0
    assert home("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    trail = tmp_path / "moved.jsonl"
    assert home("export", "-o", str(trail)).exit_code == 0
    player = CampaignRunner(player_url)
    imported = player("import", str(trail))
    assert imported.exit_code == 0, imported.output
    return player, imported


def test_a_campaign_moved_from_a_sqlite_store_rolls_again_after_a_new_epoch(league, tmp_path):
    """Its open epoch was committed in the SQLite store's key file: on the league server `seed import`
    is refused (seeds stay in the database), and `seed new-epoch` was too, so no ledger die could
    ever be rolled again. The new epoch leaves the open one behind, recorded."""
    _admin_url, player_url, _player = league
    league_store, imported = moved_from_sqlite(player_url, tmp_path)
    assert ("Ledger dice: the secret seed of epoch 0 is not in this database: open a new epoch with `campaign seed "
            "new-epoch --reason …`; table dice (--dice) work meanwhile.") in imported.output.splitlines()
    opened = league_store("seed", "new-epoch", "--reason", "moved to the league server")
    assert opened.exit_code == 0, opened.output
    assert league_store("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    assert league_store("verify").exit_code == 0
    again = league_store("seed", "new-epoch", "--reason", "once more")
    assert (again.exit_code, again.output) == (1, "Error: the seed of epoch 1 is here: reveal it with `campaign seed "
                                                  "reveal`, which also opens the next epoch (on a league server its "
                                                  "administrator runs it)\n")


def test_a_ledger_roll_or_a_reveal_without_the_seed_names_the_campaign_and_the_way_out(league, tmp_path):
    """Before the new epoch, a player's ledger roll and the administrator's reveal of a campaign moved
    from a SQLite store were refused with the dice function's own words, `no dice seed of epoch 0 for
    campaign <uuid> in this database` (exit 1), naming neither the campaign nor `seed new-epoch`; a
    SQLite store's missing key says both, with exit 2. Nothing is written."""
    admin_url, player_url, _player = league
    moved, _imported = moved_from_sqlite(player_url, tmp_path)
    missing = ("Error: the secret dice seed of Moved (epoch 0) is not in this database, so the ledger cannot roll: the "
               "epoch was committed in another store (the campaign's trail was imported here); open a new epoch with "
               "`campaign seed new-epoch --reason …` (recorded in the log); table dice (--dice) work either way\n")
    assert_neither_rolled_nor_revealed(moved, admin_url, missing)
    assert moved("roll", "D6", "--for", "loot", "--dice", "4").exit_code == 0


def assert_neither_rolled_nor_revealed(moved: CampaignRunner, admin_url: str, refusal: str) -> None:
    """A player's ledger roll and the administrator's reveal are both refused so (exit 2), writing nothing."""
    before = moved("log", "--json").output
    rolled = moved("roll", "2D6", "--for", "loot", "--ledger")
    assert (rolled.exit_code, rolled.output) == (2, refusal)
    revealed = CampaignRunner(admin_url)("seed", "reveal")
    assert (revealed.exit_code, revealed.output) == (2, refusal)
    assert moved("log", "--json").output == before


def test_a_seed_committed_by_hand_for_an_epoch_committed_elsewhere_is_not_the_campaign_s(league, tmp_path):
    """A player may commit a seed for the open epoch of a campaign imported from SQLite (the server holds
    none of its epochs): verify then took the server for the holder of that epoch's seed and called
    every imported ledger roll of it written by hand, and new-epoch refused, the seed being "here".
    A ledger roll, and the administrator's reveal, were refused as a seed changed (`the stored seed of
    epoch 0 does not match the epoch's commitment …`, exit 3), with no way out: they name the seeds
    written by hand, the DELETE and `seed new-epoch`, as a missing seed is named (exit 2), writing nothing."""
    admin_url, player_url, _player = league
    moved, _imported = moved_from_sqlite(player_url, tmp_path)
    campaign_id = json.loads(moved("show", "--json").output)["campaign_id"]
    with connect(player_url, autocommit=True) as conn:
        conn.execute("SELECT ledger_dice_commit(%s, 0)", (campaign_id,))
    not_the_campaign_s = (
        "Error: the ledger can neither roll dice of epoch 0 of Moved nor reveal its seed: this database keeps seeds of "
        "epochs 0 that the campaign never committed to (written by hand, not by the ledger), the open epoch's among "
        "them; the league's administrator removes them (DELETE FROM ledger_dice_seeds WHERE campaign_id = "
        f"'{campaign_id}' AND epoch IN (0)), then `campaign seed new-epoch --reason …` opens a new epoch (recorded in "
        "the log); table dice (--dice) work either way\n")
    assert_neither_rolled_nor_revealed(moved, admin_url, not_the_campaign_s)
    verified = moved("verify")
    assert verified.exit_code == 0, verified.output
    held_back = moved("seed", "new-epoch", "--reason", "moved")
    assert (held_back.exit_code, held_back.output) == (1, (
        "Error: epoch 1 of Moved cannot be opened: this database keeps seeds of epochs 0 that the campaign never "
        "committed to (written by hand, not by the ledger), and the server opens an epoch only after the one before "
        "it is revealed; the league's administrator removes them (DELETE FROM ledger_dice_seeds WHERE campaign_id = "
        f"'{campaign_id}' AND epoch IN (0)), then `campaign seed new-epoch` runs again\n"))
    with connect(admin_url, autocommit=True) as conn:
        conn.execute("DELETE FROM ledger_dice_seeds WHERE campaign_id = %s AND epoch = 0", (campaign_id,))
    assert moved("seed", "new-epoch", "--reason", "moved").exit_code == 0
    assert moved("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    assert moved("verify").exit_code == 0


def test_more_than_100_six_sided_dice_dealt_are_burned_as_d66(league):
    """A roll of up to 100 D66 deals 200 six-sided dice: dealt by hand (or by a roll that crashed before
    it was stored), the next command burned them as `150D6`, which no expression rolls, and every
    write of the campaign failed."""
    _admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    campaign_id = json.loads(campaign("show", "--json").output)["campaign_id"]
    committed = json.loads(campaign("export").output.splitlines()[4])["payload"]["commitment"]
    with connect(player_url, autocommit=True) as conn:
        conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, array_fill(6, ARRAY[150]), 'x', 'a peek')", (campaign_id, committed))
    rolled = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert rolled.exit_code == 0, rolled.output
    assert rolled.output.splitlines()[0].startswith("  R0 burned: dealt to ") and "75D66 rolled" in rolled.output
    assert campaign("verify").exit_code == 0


def test_an_epoch_left_behind_whose_seed_the_server_holds_fails_verify(league):
    """Events written by hand left a native campaign's epoch behind and committed the next to a seed of
    their own, then rolled from it: the server held no seed of that epoch, so none of its rolls was
    checked, and verify passed what its writer had chosen."""
    from ledger.campaigns import Ledger
    from ledger.deciding import Attempt
    from ledger.store import Store
    from ledger import events as ev

    _admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    store = Store(player_url)
    try:
        ledger = Ledger(store)
        campaign_id = ledger.find(None)
        state = ledger.load(campaign_id)
        forged = [ev.CommandRecorded(command="seed.new-epoch", args={"epoch": 0}, reason="mine"),
                  ev.SeedAbandoned(epoch=0, reason="mine"),
                  ev.SeedCommitted(epoch=1, commitment=hashlib.sha256(bytes(32)).hexdigest())]
        ledger._write(campaign_id, "forging", lambda: Attempt(state, [(forged, "mallory")]))
    finally:
        store.close()
    refused = campaign("verify")
    assert refused.exit_code == 3
    assert ("epoch 0 is left behind (seed new-epoch), but this database holds its seed as the campaign committed "
            "to it: an epoch is left behind only where its seed is elsewhere; the store was edited") in refused.output


def test_a_player_s_full_rebuild_is_refused_naming_the_one_a_player_may_do(league):
    """A player's `campaign rebuild` (every campaign: the tables dropped and made again) was refused
    with the database's words, `the store … failed: must be owner of table rm_campaigns` (exit 2), as
    if the store were broken. It names the role, whose rebuild it is, and the one a player may run."""
    _admin_url, player_url, player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    assert campaign("warband", "add", "Rats", "--player", "Ann").exit_code == 0
    refused = campaign("rebuild")
    assert (refused.exit_code, refused.output) == (1, (
        f"Error: role {player} may not drop and make again the read-model tables of every campaign (on a league "
        "server the administrator's full `campaign rebuild` does): rebuild one campaign's rows with `campaign "
        "rebuild --campaign NAME`; nothing was changed\n"))
    assert campaign("verify").exit_code == 0
    rebuilt = campaign("rebuild", "--campaign", "League")
    assert (rebuilt.exit_code, rebuilt.output.splitlines()[-1]) == (0, "Rebuilt the read models of 1 campaign from the events.")


def test_a_role_the_administrator_never_set_up_is_told_what_to_do(league):
    """A role that may log in but was never given a player's rights got `the store … failed: permission
    denied for table campaignledger_events`, as if the store were broken; it is named, with the way in."""
    admin_url, player_url, _player = league
    assert CampaignRunner(player_url)("new", "League").exit_code == 0
    outsider = f"outsider_{uuid.uuid4().hex[:8]}"
    with connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{outsider}" LOGIN')
    try:
        url = as_role(admin_url, outsider)
        # This database's public schema is the fixture's, which grants no USAGE; a new database's does.
        for denied, grant in (("schema public", f'GRANT USAGE ON SCHEMA public TO "{outsider}"'),
                              ("table campaignledger_events", None)):
            for args in (["list"], ["log"], ["new", "Another"], ["roll", "D6", "--for", "loot", "--ledger"]):
                refused = CampaignRunner(url)(*args)
                assert (refused.exit_code, refused.output) == (2, (
                    f"Error: role {outsider} may not use the campaigns of {url} (permission denied for {denied}): "
                    f"connect as a player's role, or have the league's administrator run "
                    f"`campaign admin init-roles --player {outsider}`\n")), args
            if grant:
                with connect(admin_url, autocommit=True) as conn:
                    conn.execute(grant)
        assert [line.split("  ")[0] for line in CampaignRunner(player_url)("list").output.splitlines()] == ["League"]
    finally:
        with connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{outsider}"')
            conn.execute(f'DROP ROLE "{outsider}"')


@pytest.mark.parametrize("new_role", [True, False])
def test_a_player_s_init_roles_is_refused_naming_who_runs_it(league, new_role):
    """A player running `admin init-roles` got `the database refused the set-up: permission denied to
    create role CONTEXT: SQL statement "CREATE ROLE …" PL/pgSQL function inline_code_block …` (exit 2):
    the server's context lines, and no word of who may run it. Nothing is set up."""
    admin_url, player_url, player = league
    other = f"other_{uuid.uuid4().hex[:8]}" if new_role else player
    refused = CampaignRunner(player_url)("admin", "init-roles", "--player", other)
    assert (refused.exit_code, refused.output) == (1, (
        f"Error: role {player} may not set up a league's roles (permission denied to create role): run `campaign admin init-roles` connected as "
        "the league's administrator, a superuser (`campaign --store postgresql://ADMIN@HOST/DB admin init-roles …`)\n"))
    with connect(admin_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_roles WHERE rolname = %s", (other,)).fetchone()[0] == int(not new_role)


def test_a_player_s_commands_are_recorded_while_tables_an_older_version_made_wait_for_the_administrator(league):
    """After an upgrade that adds rm_tracking's format column, a player's role may not add it: the
    commands are recorded with a warning naming the administrator's `init-roles`, which adds it; the
    player's next command then computes the rows again."""
    admin_url, player_url, player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League", "--ruleset", "freeform").exit_code == 0
    with connect(admin_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE rm_tracking DROP COLUMN format")  # as the version before it made the table
    noted = campaign("note", "after the upgrade")
    assert (noted.exit_code, noted.output) == (0, (
        "Warning: the command is recorded, but the read-model tables were made by an older version of "
        "campaign-ledger and this role may not alter them, so they are not kept: the league's administrator "
        "runs `campaign admin init-roles` after an upgrade.\n"
        "  note: after the upgrade\n"
        f"Recorded T2 (2 events). Head {json.loads(campaign('show', '--json').output)['head'][:16]}\n"))
    assert "Read models not compared: an older version of campaign-ledger wrote them (rows of format 1;" in (
        campaign("verify").output)
    dice = player.replace("player_", "dice_", 1)  # the league fixture's: the default role would outlive the test
    assert CampaignRunner(admin_url)("admin", "init-roles", "--player", player, "--dice-role", dice).exit_code == 0
    again = campaign("note", "once the administrator upgraded")
    assert (again.exit_code, "Warning" in again.output) == (0, False), again.output
    assert "Read models: the 7 rm_* tables match a rebuild from the events." in campaign("verify").output


def test_init_roles_by_a_role_that_may_make_tables_but_not_roles_leaves_nothing_behind(fresh_postgres):
    """Such a role's init-roles was refused only at its CREATE ROLE, after opening the store had made the
    event tables and init-roles the read-model tables: they stayed, owned by that role. It is refused,
    and the one transaction that made them undone."""
    maker = f"maker_{uuid.uuid4().hex[:8]}"
    with connect(fresh_postgres, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{maker}" LOGIN')
        conn.execute(f'GRANT CREATE, USAGE ON SCHEMA public TO "{maker}"')
    try:
        refused = CampaignRunner(as_role(fresh_postgres, maker))("admin", "init-roles", "--player", f"player_{maker}")
        assert (refused.exit_code, refused.output) == (1, (
            f"Error: role {maker} may not set up a league's roles (permission denied to create role): run `campaign "
            "admin init-roles` connected as the league's administrator, a superuser (`campaign --store "
            "postgresql://ADMIN@HOST/DB admin init-roles …`)\n"))
        with connect(fresh_postgres, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0
            assert conn.execute("SELECT count(*) FROM pg_roles WHERE rolname = %s", (f"player_{maker}",)).fetchone()[0] == 0
    finally:
        with connect(fresh_postgres, autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{maker}"')
            conn.execute(f'DROP ROLE "{maker}"')


def test_a_league_campaign_moved_into_a_sqlite_store_is_told_to_open_a_new_epoch(league, tmp_path):
    """Its trail imported into SQLite, a ledger roll was refused advising only to bring the seed with
    `campaign seed import FILE`, which no league server gives out (`seed export` is refused there):
    the advice names that case, and the new epoch that rolls again."""
    from ledger.keyfile import KeyFile

    admin_url, player_url, _player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    assert campaign("roll", "2D6", "--for", "loot", "--ledger").exit_code == 0
    assert CampaignRunner(admin_url)("seed", "reveal").exit_code == 0
    trail = tmp_path / "league.jsonl"
    assert campaign("export", "-o", str(trail)).exit_code == 0
    exported = campaign("seed", "export", "-o", str(tmp_path / "seed.json"))
    assert (exported.exit_code, exported.output) == (1, (
        f"Error: exporting a seed is for SQLite key files: the seeds of {player_url} stay inside its database, where "
        "players cannot read them; a copy of one of its campaigns elsewhere opens a new epoch there (`campaign seed "
        "new-epoch --reason …`)\n"))
    home = CampaignRunner("sqlite:///" + str(tmp_path / "home.db"))
    imported = home("import", str(trail))
    assert imported.output.splitlines()[1] == (
        "Ledger dice: the secret seed of epoch 1 is not on this machine: bring it with `campaign seed import FILE` "
        "(a league server's campaign has none to bring: its seeds never leave the server's database, so it opens a "
        "new epoch) or open a new epoch with `campaign seed new-epoch --reason …`; table dice (--dice) work meanwhile.")
    refused = home("roll", "2D6", "--for", "loot", "--ledger")
    assert (refused.exit_code, refused.output) == (2, (
        f"Error: the secret dice seed of League (epoch 1) is not in the key file {KeyFile().path}, so the ledger cannot "
        "roll: bring it from the machine that started the campaign (`campaign seed export` there, `campaign seed "
        "import FILE` here; a league server's campaign has none to bring: its seeds never leave the server's "
        "database, so it opens a new epoch), or open a new epoch here with `campaign seed new-epoch --reason …` "
        "(recorded in the log); table dice (--dice) work either way\n"))
    assert home("seed", "new-epoch", "--reason", "moved off the league server").exit_code == 0
    rolled = home("roll", "2D6", "--for", "loot", "--ledger")
    assert (rolled.exit_code, rolled.output.splitlines()[0][:22]) == (0, "  R1 loot: 2D6 rolled ")
    assert home("verify").exit_code == 0


def test_a_new_epoch_interrupted_after_its_seed_was_committed_goes_on_when_run_again(league, tmp_path):
    """A new-epoch that stopped between the server's commit of the next epoch's seed and the storing of
    its events leaves that seed behind: run again, new-epoch commits the campaign to it and dice roll."""
    _admin_url, player_url, _player = league
    moved, _imported = moved_from_sqlite(player_url, tmp_path)
    campaign_id = json.loads(moved("show", "--json").output)["campaign_id"]
    with connect(player_url, autocommit=True) as conn:  # what the interrupted new-epoch did
        (left,) = conn.execute("SELECT ledger_dice_commit(%s, 1)", (campaign_id,)).fetchone()
    opened = moved("seed", "new-epoch", "--reason", "moved")
    assert (opened.exit_code, opened.output.splitlines()[1]) == (0, f"  dice seed of epoch 1 committed: sha256 {left[:16]}…")
    assert moved("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    assert moved("verify").exit_code == 0


def test_a_roll_number_dealt_in_a_transaction_held_open_is_named_at_once_not_waited_for(league):
    """A deal by hand held open kept every other ledger roll of the campaign waiting 5 s on its row, and
    then refused with the database's `canceling statement due to lock timeout`. The roll is refused at
    once, naming who holds the number; once that transaction commits, the next roll burns it."""
    import time

    _admin_url, player_url, player = league
    campaign = CampaignRunner(player_url)
    assert campaign("new", "League").exit_code == 0
    campaign_id, commitment = campaign_and_commitment(campaign)
    with connect(player_url) as peek:  # a transaction of its own, left open
        assert peek.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, ARRAY[6], 'D6', 'a peek')",
                            (campaign_id, commitment)).fetchone()[0]
        started = time.monotonic()
        refused = campaign("roll", "D6", "--for", "loot", "--ledger")
        assert time.monotonic() - started < 2
        assert (refused.exit_code, refused.output) == (1, (
            f"Error: the ledger cannot roll now: roll R0 is being dealt to {player} in a transaction that has not "
            "ended: the number is burned or freed once it ends; try again then, or roll table dice (--dice)\n"))
        peek.commit()
    rolled = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert rolled.exit_code == 0, rolled.output
    assert rolled.output.startswith(f"  R0 burned: dealt to {player} at ")
    assert campaign("verify").exit_code == 0


def schema_objects(url: str, roles: tuple[str, ...]) -> list[str]:
    """What init-roles makes in a database: tables, indexes and sequences, types, functions, pgcrypto, and
    which of these roles there are."""
    with connect(url, autocommit=True) as conn:
        return [name for (name,) in conn.execute(
            "SELECT relname::text FROM pg_class WHERE relnamespace = 'public'::regnamespace "
            "UNION ALL SELECT typname::text FROM pg_type WHERE typnamespace = 'public'::regnamespace "
            "UNION ALL SELECT proname::text FROM pg_proc WHERE pronamespace = 'public'::regnamespace "
            "UNION ALL SELECT extname::text FROM pg_extension WHERE extname = 'pgcrypto' "
            "UNION ALL SELECT rolname::text FROM pg_roles WHERE rolname = ANY(%s)", (list(roles),)).fetchall()]


def refused_at_the_end(last: str):
    """init-roles' script with a last statement of its own, after every table, role and grant it makes."""
    from ledger.dealer import init_roles_sql

    def script(**names: Any) -> str:
        return init_roles_sql(**names) + last
    return script


@pytest.mark.parametrize("refused", ["grant refused", "connection lost"])
def test_init_roles_refused_after_making_its_tables_leaves_nothing_behind(fresh_postgres, monkeypatch, refused):
    """Opening the store made the event tables, and init-roles the read-model tables, each in a
    transaction of its own before the script's: any refusal of the script (a GRANT, a connection lost)
    left them behind. All of it is one transaction now: the server's refusal is named (its own sentence,
    not its DETAIL and CONTEXT), and no table, type, function, extension or role is left."""
    from ledger.cli import keys

    suffix = uuid.uuid4().hex[:8]
    player, dice = f"player_{suffix}", f"dice_{suffix}"
    said = {
        "grant refused": f'the database refused the set-up: role "no_{suffix}" does not exist',
        "connection lost": ("the connection to the database was lost during the set-up (terminating connection due "
                            "to administrator command): nothing was made; run it again"),
    }[refused]
    last = {"grant refused": f'GRANT USAGE ON SCHEMA public TO "no_{suffix}";',
            "connection lost": "SELECT pg_terminate_backend(pg_backend_pid());"}.get(refused)
    if last:
        monkeypatch.setattr(keys, "init_roles_sql", refused_at_the_end(last))
    try:
        made = CampaignRunner(fresh_postgres)("admin", "init-roles", "--player", player, "--dice-role", dice)
        assert (made.exit_code, made.output) == (2, f"Error: {said}\n")
        assert schema_objects(fresh_postgres, (player, dice)) == []
    finally:
        with connect(fresh_postgres, autocommit=True) as conn:
            made_roles = conn.execute("SELECT rolname FROM pg_roles WHERE rolname IN (%s, %s)", (player, dice)).fetchall()
            for (role,) in made_roles:
                conn.execute(f'DROP OWNED BY "{role}" CASCADE')
                conn.execute(f'DROP ROLE "{role}"')


def test_init_roles_whose_connection_is_lost_as_it_commits_says_it_may_be_made_and_runs_again(fresh_postgres,
                                                                                                monkeypatch):
    """A connection lost once COMMIT was sent leaves the server alone knowing whether the set-up was made:
    saying "nothing was made" could be untrue. Here it was made; run again, it is ready."""
    import psycopg

    suffix = uuid.uuid4().hex[:8]
    player, dice = f"player_{suffix}", f"dice_{suffix}"
    from ledger.cli import keys
    from ledger.dealer import init_roles_sql

    committed, scripted = psycopg.Transaction.__exit__, []

    def script(**names: Any) -> str:  # written once the store is open, right before the set-up's transaction
        scripted.append(True)
        return init_roles_sql(**names)

    def lost_after_the_commit(self, exc_type, exc_val, exc_tb):
        done = committed(self, exc_type, exc_val, exc_tb)
        if scripted and exc_type is None and self._outer_transaction:  # the COMMIT, not a savepoint
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return done

    try:
        with monkeypatch.context() as patched:
            patched.setattr(keys, "init_roles_sql", script)
            patched.setattr(psycopg.Transaction, "__exit__", lost_after_the_commit)
            made = CampaignRunner(fresh_postgres)("admin", "init-roles", "--player", player, "--dice-role", dice)
        assert (made.exit_code, made.output) == (2, (
            "Error: the connection to the database was lost as the set-up was committed (server closed the "
            "connection unexpectedly): it may have been made or not; run it again, which makes what is missing "
            "and leaves what is there\n"))
        assert {player, dice} <= set(schema_objects(fresh_postgres, (player, dice)))
        again = CampaignRunner(fresh_postgres)("admin", "init-roles", "--player", player, "--dice-role", dice)
        assert (again.exit_code, again.output.split(":")[0]) == (0, "Roles ready on postgresql")
    finally:
        with connect(fresh_postgres, autocommit=True) as conn:
            for (role,) in conn.execute("SELECT rolname FROM pg_roles WHERE rolname IN (%s, %s)", (player, dice)):
                conn.execute(f'DROP OWNED BY "{role}" CASCADE')
                conn.execute(f'DROP ROLE "{role}"')


@pytest.mark.parametrize(("player", "dice", "said"), [
    ("pg_players", "dice_role", "'pg_players' cannot name a role: PostgreSQL reserves names beginning with pg_"),
    ("players", "pg_dice", "'pg_dice' cannot name a role: PostgreSQL reserves names beginning with pg_"),
    ("p" * 64, "dice_role", f"'{'p' * 64}' cannot name a role: PostgreSQL keeps names of up to 63 bytes"),
])
def test_init_roles_refuses_a_role_name_the_server_would_not_keep_before_making_anything(fresh_postgres, player,
                                                                                         dice, said):
    """A name PostgreSQL reserves (pg_…) or would cut short (over 63 bytes) is named before anything is
    made, not in the server's words (with its DETAIL and CONTEXT) after the tables."""
    made = CampaignRunner(fresh_postgres)("admin", "init-roles", "--player", player, "--dice-role", dice)
    assert (made.exit_code, made.output) == (2, f"Error: {said}\n")
    assert schema_objects(fresh_postgres, (player, dice)) == []
