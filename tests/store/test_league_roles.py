"""A PostgreSQL league server where players cannot read the dice seeds (issue #7, attack 2).

`campaign admin init-roles` makes a dice role (owns the seeds, the record of dealt dice and the
functions that deal faces) and a player role. Connected as the player: `select * from` the seeds is
refused, ledger dice roll, a face fetched by hand is recorded as dealt and burned by the next roll,
a face cannot be read inside a transaction that could be rolled back, and after `seed reveal` the
independent verifier re-derives every ledger die from the trail alone."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
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
        assert conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, ARRAY[6])", (campaign_id, committed)).fetchone()[0]
        assert conn.execute("SELECT ledger_dice_faces(%s, 0, 0)", (campaign_id,)).fetchone()[0] is None
        conn.rollback()
    # Alone in its transaction it is dealt, and the face can be read only once that is committed.
    with connect(player_url, autocommit=True) as conn:
        assert conn.execute("SELECT ledger_dice_deal(%s, 0, %s, 0, ARRAY[6])", (campaign_id, committed)).fetchone()[0]
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

    assert campaign("seed", "reveal").exit_code == 0
    trail = tmp_path / "trail.jsonl"
    assert campaign("export", "-o", str(trail)).exit_code == 0
    result = subprocess.run([sys.executable, str(VERIFIER), str(trail)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
    assert ", 2 ledger rolls re-derived, 0 awaiting a seed, " in result.stdout
    assert commitment  # the log shows the commitment the player can check the reveal against
