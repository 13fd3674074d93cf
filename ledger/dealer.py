"""Ledger dice on a PostgreSQL league server: the seeds stay inside the database, out of players' reach.

The seeds and a record of every die dealt are tables of a *dice role*; players connect with a role
that may not read them. Faces are derived inside the database by SECURITY DEFINER functions owned
by the dice role, with pgcrypto's `hmac`, exactly as DESIGN.md and docs/audit-format.md derive them
(so trails verify offline as ever):

- `ledger_dice_commit(campaign, epoch)` draws an epoch's seed (once) and returns its commitment:
  epoch 0 at any time (`campaign new`), a later epoch only once the one before it is revealed;
- `ledger_dice_deal(campaign, epoch, commitment, roll, sides[], expression, purpose)` checks the
  seed against the commitment, refuses a revealed epoch, derives the faces of roll `roll` and
  records them with who and when and what they are for (so a roll dealt for one purpose cannot be
  stored for another), dealing a roll number only once; it returns no face, and refuses at once a number
  another transaction deals and has not ended, naming who (neither used nor burned until that ends);
- `ledger_dice_faces(campaign, epoch, roll)` gives the faces of a dealt roll, but never to the
  transaction that dealt it: a face cannot be seen before its record is committed, so a peek
  inside a transaction rolled back afterwards sees nothing;
- `ledger_dice_dealt(campaign, from_roll)` lists dealt rolls (for burning and for `verify`);
- `ledger_dice_epochs(campaign)` lists the epochs this database holds a seed of (so that `verify`
  knows which ledger rolls must have been dealt here), never a seed;
- `ledger_dice_reveal(campaign, epoch, commitment)` reveals an epoch's seed once it matches, to the
  dice role and its members (the league's administrator) alone, and keeps who and when: a player
  may not reveal a seed, since the reveal could not be recorded in the campaign's history before
  the seed is shown (`campaign seed reveal` records it as soon as it is shown).

A roll number dealt but never stored in the campaign's stream (a player calling the function to
peek, or a crash) is *burned*: the next command first records it (its faces, who was dealt it and
when) and takes the next number, so a peek gains nothing and shows in the log. (A number dealt in an
epoch revealed since is dealt afresh from the next epoch's seed: the peeked face is never used.)

`campaign admin init-roles` creates the two roles and hands the objects to the dice role; without
it, whoever opens the store owns them (a single-user server: the seeds are as safe as that role).
Run again, it replaces the functions and the player's grants by this version's; a single-user
server's owner has its functions replaced the first time a command uses the dice.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import msgspec

from ledger.errors import BadInput, Conflict, IntegrityFailure, NotFound, RuleViolation

DICE_ROLE = "campaign_ledger_dice"

_TABLES = """
CREATE EXTENSION IF NOT EXISTS pgcrypto;
CREATE TABLE IF NOT EXISTS ledger_dice_seeds (
    campaign_id text NOT NULL,
    epoch integer NOT NULL,
    seed bytea NOT NULL,
    revealed boolean NOT NULL DEFAULT false,
    PRIMARY KEY (campaign_id, epoch)
);
CREATE TABLE IF NOT EXISTS ledger_dice_dealt (
    campaign_id text NOT NULL,
    roll integer NOT NULL,
    epoch integer NOT NULL,
    sides integer[] NOT NULL,
    faces integer[] NOT NULL,
    dealt_to text NOT NULL,
    dealt_at timestamptz NOT NULL,
    dealt_xact bigint NOT NULL,
    PRIMARY KEY (campaign_id, epoch, roll)
);
ALTER TABLE ledger_dice_seeds ADD COLUMN IF NOT EXISTS revealed_to text,
    ADD COLUMN IF NOT EXISTS revealed_at timestamptz;
-- What each roll was dealt for (NULL: dealt by an older version, before deals were bound to it).
ALTER TABLE ledger_dice_dealt ADD COLUMN IF NOT EXISTS expression text,
    ADD COLUMN IF NOT EXISTS purpose text;
REVOKE ALL ON ledger_dice_seeds, ledger_dice_dealt FROM PUBLIC;
"""

# Each function body runs with the privileges of its owner (the dice role) and a fixed search path.
_FUNCTIONS = """
CREATE OR REPLACE FUNCTION ledger_dice_commit(p_campaign text, p_epoch integer) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, public, pg_temp AS $$
DECLARE k bytea;
BEGIN
    SELECT seed INTO k FROM ledger_dice_seeds WHERE campaign_id = p_campaign AND epoch = p_epoch;
    IF k IS NULL THEN
        -- A later epoch opens when the one before it is revealed (`campaign seed reveal`), never ahead;
        -- or, for a campaign whose earlier epochs were committed elsewhere (a trail imported from a
        -- SQLite store), after them (`campaign seed new-epoch` leaves the open one behind).
        IF p_epoch < 0 OR (p_epoch > 0 AND NOT EXISTS (SELECT 1 FROM ledger_dice_seeds
                WHERE campaign_id = p_campaign AND epoch = p_epoch - 1 AND revealed)
                AND EXISTS (SELECT 1 FROM ledger_dice_seeds WHERE campaign_id = p_campaign AND epoch < p_epoch)) THEN
            RAISE EXCEPTION 'epoch % of campaign % is committed only once epoch % is revealed (`campaign seed reveal`)',
                p_epoch, p_campaign, p_epoch - 1 USING ERRCODE = 'P0006';
        END IF;
        INSERT INTO ledger_dice_seeds (campaign_id, epoch, seed) VALUES (p_campaign, p_epoch, gen_random_bytes(32))
            ON CONFLICT (campaign_id, epoch) DO NOTHING;
        SELECT seed INTO k FROM ledger_dice_seeds WHERE campaign_id = p_campaign AND epoch = p_epoch;
    END IF;
    RETURN encode(digest(k, 'sha256'), 'hex');
END $$;

CREATE OR REPLACE FUNCTION ledger_dice_seed(p_campaign text, p_epoch integer, p_commitment text) RETURNS bytea
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, public, pg_temp AS $$
DECLARE k bytea;
BEGIN
    SELECT seed INTO k FROM ledger_dice_seeds WHERE campaign_id = p_campaign AND epoch = p_epoch;
    IF k IS NULL THEN
        RAISE EXCEPTION 'no dice seed of epoch % for campaign % in this database', p_epoch, p_campaign
            USING ERRCODE = 'P0002';
    END IF;
    IF encode(digest(k, 'sha256'), 'hex') <> p_commitment THEN
        RAISE EXCEPTION 'the stored seed of epoch % does not match the epoch''s commitment', p_epoch
            USING ERRCODE = 'P0003';
    END IF;
    RETURN k;
END $$;

-- An older version's deal was bound to no expression and purpose, and its list did not show them.
DROP FUNCTION IF EXISTS ledger_dice_deal(text, integer, text, integer, integer[]);
-- Its list keeps its signature: dropped only when it is the older one (whose result names no purpose),
-- since a function made again loses the EXECUTE granted on it to every other player role.
DO $$ BEGIN
    IF pg_get_function_result(to_regprocedure('{schema}.ledger_dice_dealt(text, integer)')) NOT LIKE '%purpose%' THEN
        DROP FUNCTION {schema}.ledger_dice_dealt(text, integer);
    END IF;
END $$;

CREATE OR REPLACE FUNCTION ledger_dice_deal(p_campaign text, p_epoch integer, p_commitment text, p_roll integer,
                                            p_sides integer[], p_expression text, p_purpose text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, public, pg_temp
-- A number an older version's deal holds open (it took no lock of the number: see below) is waited for
-- no longer than this: a player holding one open by hand kept every ledger roll waiting, without end.
SET lock_timeout = '5s' AS $$
DECLARE
    k bytea; was_revealed boolean; block bytea; x numeric; lim numeric; a integer; j integer; i integer; n integer;
    dealt integer[] := '{{}}'; inserted integer; shown text; number_lock integer; holder text;
BEGIN
    IF p_expression IS NULL OR p_purpose IS NULL THEN
        RAISE EXCEPTION 'a ledger roll is dealt for an expression and a purpose' USING ERRCODE = '22004';
    END IF;
    -- Only the dice a roll deals: up to 100 of one size (2 to 1000 sides; up to 100 D66, two six-sided
    -- dice each), or a shuffle's (K, K-1 … 2; none for a deck of one card). Others, dealt by hand, were
    -- burned by the next roll as dice no expression rolls: a burn that failed verify for ever, or a
    -- roll number no command could pass.
    n := coalesce(array_length(p_sides, 1), 0);
    IF n > 1000 OR array_position(p_sides, NULL) IS NOT NULL OR NOT (
           n = 0 OR (p_sides[1] BETWEEN 2 AND 1000 AND p_sides <@ ARRAY[p_sides[1]]
                     AND (n <= 100 OR (n <= 200 AND n % 2 = 0 AND p_sides[1] = 6)))
           OR p_sides = ARRAY(SELECT generate_series(n + 1, 2, -1))) THEN
        RAISE EXCEPTION 'no roll deals dice of these sides: %', p_sides USING ERRCODE = '22023';
    END IF;
    k := ledger_dice_seed(p_campaign, p_epoch, p_commitment);
    SELECT revealed, coalesce(' to ' || revealed_to, '')
                     || coalesce(' at ' || to_char(revealed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), '')
        INTO was_revealed, shown FROM ledger_dice_seeds WHERE campaign_id = p_campaign AND epoch = p_epoch;
    IF was_revealed THEN
        -- The history this command read still has the epoch open: the reveal was never recorded (a
        -- reveal that stopped before it was stored, or a call made by hand).
        RAISE EXCEPTION 'the seed of epoch % was revealed%, but the campaign''s history has no record of it, so '
            'no ledger die is dealt from it any more: `campaign seed reveal` records the reveal and opens epoch % '
            '(on a league server its administrator runs it); table dice (--dice) roll meanwhile',
            p_epoch, shown, p_epoch + 1 USING ERRCODE = 'P0005';
    END IF;
    -- A number dealt in a transaction not yet ended (a deal by hand held open) is neither free nor to be
    -- burned yet: its faces are recorded once that transaction commits, and a rollback frees it. Say so at
    -- once, naming who holds it, instead of waiting on its row: the caller tries again in a moment.
    number_lock := hashtext(p_campaign || ':' || p_epoch) & 2147483647;
    IF NOT pg_try_advisory_xact_lock(number_lock, p_roll) THEN
        SELECT a.usename INTO holder FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = number_lock::oid AND l.objid = p_roll::oid
              AND l.objsubid = 2 LIMIT 1;
        RAISE EXCEPTION 'roll R% is being dealt to % in a transaction that has not ended: the number is burned or '
            'freed once it ends', p_roll, coalesce(holder, 'another connection') USING ERRCODE = 'P0007';
    END IF;
    IF EXISTS (SELECT 1 FROM ledger_dice_dealt WHERE campaign_id = p_campaign AND epoch = p_epoch AND roll = p_roll) THEN
        RETURN false;
    END IF;
    FOR j IN 1 .. coalesce(array_length(p_sides, 1), 0) LOOP
        lim := floor(18446744073709551616 / p_sides[j]) * p_sides[j];
        a := 0;
        LOOP
            block := hmac(convert_to(p_campaign || ':' || p_roll || ':' || (j - 1) || ':' || a, 'UTF8'), k, 'sha256');
            x := 0;
            FOR i IN 0 .. 7 LOOP
                x := x * 256 + get_byte(block, i);
            END LOOP;
            EXIT WHEN x < lim;
            a := a + 1;
        END LOOP;
        dealt := dealt || ((x % p_sides[j])::integer + 1);
    END LOOP;
    -- Two writers may deal one number at once: the first keeps it, the other hears it was dealt.
    INSERT INTO ledger_dice_dealt (campaign_id, roll, epoch, sides, faces, dealt_to, dealt_at, dealt_xact, expression, purpose)
        VALUES (p_campaign, p_roll, p_epoch, p_sides, dealt, session_user, now(), txid_current(), p_expression, p_purpose)
        ON CONFLICT (campaign_id, epoch, roll) DO NOTHING;
    GET DIAGNOSTICS inserted = ROW_COUNT;
    RETURN inserted = 1;
END $$;

-- Marks this version's functions (the deal checks the dice it is asked for and names a number held open;
-- an epoch is committed after one held elsewhere): a database without it has an older version's, which
-- `ensure` replaces.
DROP FUNCTION IF EXISTS ledger_dice_checks_sides();
CREATE OR REPLACE FUNCTION ledger_dice_names_open_deals() RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';

CREATE OR REPLACE FUNCTION ledger_dice_faces(p_campaign text, p_epoch integer, p_roll integer) RETURNS integer[]
LANGUAGE sql SECURITY DEFINER SET search_path = {schema}, public, pg_temp AS $$
    SELECT faces FROM ledger_dice_dealt
    WHERE campaign_id = p_campaign AND epoch = p_epoch AND roll = p_roll AND dealt_xact <> txid_current()
$$;

CREATE OR REPLACE FUNCTION ledger_dice_dealt(p_campaign text, p_from_roll integer)
RETURNS TABLE (roll integer, epoch integer, sides integer[], faces integer[], dealt_to text, dealt_at text,
               expression text, purpose text)
LANGUAGE sql SECURITY DEFINER SET search_path = {schema}, public, pg_temp AS $$
    SELECT roll, epoch, sides, faces, dealt_to, to_char(dealt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           expression, purpose
    FROM ledger_dice_dealt
    WHERE campaign_id = p_campaign AND roll >= p_from_roll AND dealt_xact <> txid_current()
    ORDER BY epoch, roll
$$;

CREATE OR REPLACE FUNCTION ledger_dice_epochs(p_campaign text) RETURNS TABLE (epoch integer, revealed boolean)
LANGUAGE sql SECURITY DEFINER SET search_path = {schema}, public, pg_temp AS $$
    SELECT epoch, revealed FROM ledger_dice_seeds WHERE campaign_id = p_campaign ORDER BY epoch
$$;

-- Inside the function current_user is its owner, the dice role: only that role, its members and
-- superusers (the league's administrator) may reveal, whatever grants an older version left.
CREATE OR REPLACE FUNCTION ledger_dice_reveal(p_campaign text, p_epoch integer, p_commitment text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, public, pg_temp AS $$
DECLARE k bytea;
BEGIN
    IF NOT pg_has_role(session_user, current_user, 'MEMBER') THEN
        RAISE EXCEPTION 'role % may not reveal a dice seed', session_user USING ERRCODE = '42501';
    END IF;
    k := ledger_dice_seed(p_campaign, p_epoch, p_commitment);
    UPDATE ledger_dice_seeds SET revealed = true, revealed_to = coalesce(revealed_to, session_user::text),
                                 revealed_at = coalesce(revealed_at, now())
        WHERE campaign_id = p_campaign AND epoch = p_epoch;
    RETURN encode(k, 'hex');
END $$;

REVOKE ALL ON FUNCTION ledger_dice_seed(text, integer, text) FROM PUBLIC;
"""
PLAYER_FUNCTIONS = (
    "ledger_dice_commit(text, integer)",
    "ledger_dice_deal(text, integer, text, integer, integer[], text, text)",
    "ledger_dice_faces(text, integer, integer)",
    "ledger_dice_dealt(text, integer)",
    "ledger_dice_epochs(text)",
)
# Not the player's: revealing is the administrator's (see ledger_dice_reveal), and a grant an older
# version gave the player is taken back when `init-roles` runs again.
ADMIN_FUNCTIONS = ("ledger_dice_reveal(text, integer, text)",)
# The functions this version added last: a database without them has older ones, replaced by `ensure`.
NEWEST_FUNCTIONS = ("ledger_dice_deal(text, integer, text, integer, integer[], text, text)", "ledger_dice_names_open_deals()")
NEWEST_PRESENT = " AND ".join(f"to_regprocedure('{function}') IS NOT NULL" for function in NEWEST_FUNCTIONS)
DICE_TABLES = ("ledger_dice_seeds", "ledger_dice_dealt")


def setup_sql(schema: str) -> str:
    """The dice tables and functions, as one script (what `campaign admin init-roles` runs)."""
    return _TABLES + _FUNCTIONS.format(schema=f'"{schema}"')


class Dealt(msgspec.Struct, frozen=True):
    roll: int
    epoch: int
    sides: list[int]
    faces: list[int]
    dealt_to: str
    dealt_at: str
    expression: str | None = None  # what it was dealt for (None: dealt by an older version)
    purpose: str | None = None

    @property
    def burned_purpose(self) -> str:
        """The purpose of the roll that records it burned."""
        return f"burned: dealt to {self.dealt_to} at {self.dealt_at}, never recorded"


class _Refused(BadInput):
    """The database refused this role a dice function (the reveal, to a player)."""


class NoSeed(NotFound):
    """The database holds no seed of the epoch (committed elsewhere: a trail imported from another
    store); the ledger says so by the campaign's name, with the way out (ledger.seeds.missing_seed)."""


class ForeignSeed(IntegrityFailure):
    """The database's seed of the epoch is not the one the campaign committed to (written by hand, for an
    epoch committed elsewhere); the ledger names every such seed and how to remove them
    (ledger.seeds.foreign_seed)."""


class OpenDeal(Conflict):
    """The roll number is being dealt in another transaction that has not ended (a deal by hand held
    open, or another writer's deal this instant): tried again in a moment, then named."""


class AlreadyDealt(Conflict):
    """The roll number was dealt before (a peek, a crash, or this command's own earlier try): it is
    burned and the command decided again with the next number."""


class Dealer:
    """The dice functions of one PostgreSQL database, called on a connection of its own in
    autocommit mode (a deal is committed before its faces can be read)."""

    def __init__(self, settings: dict[str, str]):
        self.settings = settings
        self.schema = settings.get("POSTGRES_SCHEMA") or "public"
        self._conn: Any = None
        self._moved_legacy = False

    def _connection(self) -> Any:
        if self._conn is None:
            import psycopg  # deferred: the PostgreSQL driver is imported only when it is used

            s = self.settings
            self._conn = psycopg.connect(
                dbname=s["POSTGRES_DBNAME"], host=s["POSTGRES_HOST"], port=s["POSTGRES_PORT"],
                user=s["POSTGRES_USER"], password=s["POSTGRES_PASSWORD"], autocommit=True,
                connect_timeout=int(s.get("POSTGRES_CONNECT_TIMEOUT", "5")),
                options=f"-c search_path={self.schema}",
            )
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    @contextlib.contextmanager
    def turn(self, key: int, wait_seconds: float) -> Iterator[None]:
        """Hold the session advisory lock `key` on this connection, once it is free; after
        `wait_seconds` go ahead without it (what the lock orders is then left to the caller's own
        checks)."""
        import psycopg

        conn = self._connection()
        try:
            # One statement, one round trip: the timeout is set for its own transaction (the subquery,
            # kept whole by OFFSET 0, runs first), and the session lock outlives that.
            conn.execute("SELECT pg_advisory_lock(%s) FROM (SELECT set_config('lock_timeout', %s, true) OFFSET 0) AS timeout",
                         (key, f"{int(wait_seconds * 1000)}ms"))
        except psycopg.errors.LockNotAvailable:
            yield
            return
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def _call(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        import psycopg

        if not self._moved_legacy:
            self._move_legacy()
        try:
            try:
                return self._connection().execute(sql, params).fetchall()
            except (psycopg.errors.UndefinedFunction, psycopg.errors.UndefinedColumn):  # an older version's
                self.ensure()
                return self._connection().execute(sql, params).fetchall()
        except psycopg.Error as error:
            raise _ledger_error(error) from None

    def _move_legacy(self) -> None:
        """On first use, move seeds left in the old table, and replace the dice functions of an
        older version (a role that may not: the administrator's `init-roles` does both; the older
        functions are used meanwhile)."""
        import psycopg

        self._moved_legacy = True
        conn = self._connection()
        legacy, older = conn.execute(
            "SELECT to_regclass('campaignledger_seeds') IS NOT NULL, "
            "to_regprocedure('ledger_dice_faces(text, integer, integer)') IS NOT NULL "
            f"AND NOT ({NEWEST_PRESENT})").fetchone()
        if older:
            with contextlib.suppress(RuleViolation):
                self.ensure()
        if not legacy:
            return
        self.ensure()
        try:
            conn.execute(move_legacy_sql(self.schema))
        except psycopg.errors.InsufficientPrivilege:
            pass

    def ensure(self) -> None:
        """Create the dice tables and functions if this database has none yet, or replace those of
        an older version (the role that does owns them: on a league server `campaign admin
        init-roles` does it as the dice role's)."""
        import psycopg

        conn = self._connection()
        older = False
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('campaign-ledger dice'))")
                older, newest = conn.execute(
                    "SELECT to_regprocedure('ledger_dice_faces(text, integer, integer)') IS NOT NULL, "
                    f"{NEWEST_PRESENT}").fetchone()
                if not newest:
                    conn.execute(setup_sql(self.schema))
        except psycopg.errors.InsufficientPrivilege:
            if older:
                raise RuleViolation("the ledger dice functions of this PostgreSQL database are an older version's, "
                                    "and this role may not replace them: ask the league's administrator to run "
                                    "`campaign admin init-roles` again") from None
            raise RuleViolation("this PostgreSQL database has no ledger dice set up, and this role may not set "
                                "them up: ask the league's administrator to run `campaign admin init-roles`") from None

    @contextlib.contextmanager
    def setting_up(self) -> Iterator[Any]:
        """A cursor in one transaction, for an administrator's set-up (`admin init-roles`): all of it is
        made, or nothing (PostgreSQL undoes tables, types, functions, extensions and roles alike), whatever
        stops it: a statement refused, a role that may not, a connection lost."""
        import psycopg

        conn = self._connection()
        committing = False
        try:
            with conn.transaction():
                yield conn.cursor()
                committing = True  # what is left is the COMMIT, which the server may have done
        except psycopg.errors.InsufficientPrivilege as error:
            raise not_an_administrator(conn.info.user, _primary(error)) from None
        except psycopg.OperationalError as error:
            if committing:
                raise BadInput(f"the connection to the database was lost as the set-up was committed "
                               f"({_primary(error)}): it may have been made or not; run it again, which makes "
                               "what is missing and leaves what is there") from None
            raise BadInput(f"the connection to the database was lost during the set-up ({_primary(error)}): "
                           "nothing was made; run it again") from None
        except psycopg.Error as error:
            raise BadInput(f"the database refused the set-up: {_primary(error)}") from None

    # --- what the ledger asks ------------------------------------------------------------------

    def holds(self, campaign_id: str, commitments: dict[int, str]) -> dict[int, bool]:
        """The epochs whose seed this database holds as the campaign committed to it (`commitments`,
        epoch -> the commitment its history records), each with whether it is revealed. A seed the
        database keeps for an epoch committed elsewhere (a player committing one by hand for a trail
        imported from a SQLite store) is not the campaign's: none of its dice came from it."""
        return {epoch: revealed for epoch, revealed in self.epochs(campaign_id).items()
                if epoch in commitments and self.commit(campaign_id, epoch) == commitments[epoch]}

    def commit(self, campaign_id: str, epoch: int) -> str:
        return self._call("SELECT ledger_dice_commit(%s, %s)", campaign_id, epoch)[0][0]

    def reveal(self, campaign_id: str, epoch: int, commitment: str) -> str:
        try:
            return self._call("SELECT ledger_dice_reveal(%s, %s, %s)", campaign_id, epoch, commitment)[0][0]
        except _Refused:
            user = self._connection().info.user
            raise RuleViolation(
                f"role {user} may not reveal a dice seed: on a league server the seed is revealed by its "
                "administrator (`campaign --store postgresql://ADMIN@HOST/DB seed reveal`), since a player who "
                "could reveal one could read it without the reveal being recorded") from None

    def deal(self, campaign_id: str, epoch: int, commitment: str, roll: int, sides: list[int],
             expression: str, purpose: str) -> list[int]:
        """The faces of roll `roll`, dealt for this expression and purpose (recorded with it)."""
        fresh = self._call("SELECT ledger_dice_deal(%s, %s, %s, %s, %s, %s, %s)", campaign_id, epoch, commitment, roll,
                           sides, expression, purpose)
        if not fresh[0][0]:
            raise AlreadyDealt(f"roll R{roll} was dealt before and never recorded: it is burned")
        return list(self._call("SELECT ledger_dice_faces(%s, %s, %s)", campaign_id, epoch, roll)[0][0])

    def dealt(self, campaign_id: str, from_roll: int = 0) -> list[Dealt]:
        rows = self._call("SELECT roll, epoch, sides, faces, dealt_to, dealt_at, expression, purpose "
                          "FROM ledger_dice_dealt(%s, %s)", campaign_id, from_roll)
        return [Dealt(roll, epoch, list(sides), list(faces), who, when, expression, purpose)
                for roll, epoch, sides, faces, who, when, expression, purpose in rows]

    def epochs(self, campaign_id: str) -> dict[int, bool]:
        """The epochs of the campaign whose seed this database holds, each with whether it is revealed:
        every ledger roll of such an epoch was dealt here."""
        return dict(self._call("SELECT * FROM ledger_dice_epochs(%s)", campaign_id))


def init_roles_sql(*, schema: str, dice_role: str, player_role: str, password: str | None,
                   event_tables: list[str], read_model_tables: list[str]) -> str:
    """The administrator's script: the dice role owns the seeds, the dealt dice and the functions;
    the player role may call the functions and read and append events, and nothing else.
    (Documented in the README; `campaign admin init-roles` runs it.)"""
    login = "LOGIN" + (" PASSWORD " + _literal(password) if password else "")
    q = _identifier
    for role in (dice_role, player_role):
        _refuse_a_reserved_role_name(role)
    functions = (*PLAYER_FUNCTIONS, *ADMIN_FUNCTIONS, "ledger_dice_seed(text, integer, text)")
    statements = [
        f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = {_literal(dice_role)}) THEN "
        f"CREATE ROLE {q(dice_role)} NOLOGIN; END IF; END $$",
        f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = {_literal(player_role)}) THEN "
        f"CREATE ROLE {q(player_role)} {login}; END IF; END $$",
        setup_sql(schema).strip().rstrip(";"),
        move_legacy_sql(schema),
        *(f"ALTER TABLE {q(schema)}.{table} OWNER TO {q(dice_role)}" for table in DICE_TABLES),
        *(f"ALTER FUNCTION {q(schema)}.{function} OWNER TO {q(dice_role)}" for function in functions),
        *(f"REVOKE ALL ON FUNCTION {q(schema)}.{function} FROM PUBLIC" for function in functions),
        *(f"GRANT EXECUTE ON FUNCTION {q(schema)}.{function} TO {q(player_role)}" for function in PLAYER_FUNCTIONS),
        # The player roles set up before (those that may append events), whose rights on a function an
        # upgrade made anew went with the old one: every one of them, not only the role named now.
        f"DO $$ DECLARE r text; BEGIN FOR r IN SELECT DISTINCT grantee FROM information_schema.role_table_grants "
        f"WHERE table_schema = {_literal(schema)} AND table_name = {_literal(event_tables[0])} AND privilege_type = 'INSERT' "
        f"AND grantee NOT IN (current_user, {_literal(player_role)}) LOOP "
        + " ".join(f"EXECUTE format('GRANT EXECUTE ON FUNCTION {q(schema)}.{function} TO %I', r);"
                   for function in PLAYER_FUNCTIONS)
        + " END LOOP; END $$",
        *(f"REVOKE ALL ON FUNCTION {q(schema)}.{function} FROM {q(player_role)}" for function in ADMIN_FUNCTIONS),
        f"GRANT USAGE ON SCHEMA {q(schema)} TO {q(dice_role)}, {q(player_role)}",
        *(f"GRANT SELECT, INSERT ON {q(schema)}.{table} TO {q(player_role)}" for table in event_tables),
        *(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {q(schema)}.{table} TO {q(player_role)}" for table in read_model_tables),
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {q(schema)} TO {q(player_role)}",
    ]
    return ";\n".join(statements) + ";\n"


def not_an_administrator(role: str, why: str) -> RuleViolation:
    return RuleViolation(f"role {role} may not set up a league's roles ({why}): run `campaign admin init-roles` "
                         "connected as the league's administrator, a superuser (`campaign --store "
                         "postgresql://ADMIN@HOST/DB admin init-roles …`)")


def move_legacy_sql(schema: str) -> str:
    """Seeds an older version kept in the `campaignledger_seeds` table (readable by any role that
    could connect) move into the dice table, once; the old table goes."""
    q = _identifier(schema)
    return (
        f"DO $$ BEGIN IF to_regclass('{q}.campaignledger_seeds') IS NOT NULL THEN "
        f"INSERT INTO {q}.ledger_dice_seeds (campaign_id, epoch, seed) "
        f"SELECT originator_id::text, originator_version - 1, decode(convert_from(state, 'UTF8'), 'hex') "
        f"FROM {q}.campaignledger_seeds ON CONFLICT DO NOTHING; "
        f"DROP TABLE {q}.campaignledger_seeds; END IF; END $$"
    )


def _identifier(name: str) -> str:
    if not name.replace("_", "").isalnum():
        raise BadInput(f"'{name}' is not a role or schema name (letters, digits and _ only)")
    return f'"{name}"'


# PostgreSQL keeps names of up to 63 bytes (longer ones are cut short) and reserves those beginning "pg_".
LONGEST_NAME = 63


def _refuse_a_reserved_role_name(name: str) -> None:
    if name.startswith("pg_"):
        raise BadInput(f"'{name}' cannot name a role: PostgreSQL reserves names beginning with pg_")
    if len(name.encode()) > LONGEST_NAME:
        raise BadInput(f"'{name}' cannot name a role: PostgreSQL keeps names of up to {LONGEST_NAME} bytes")


def _primary(error: Any) -> str:
    """The server's own sentence for an error, without its DETAIL and CONTEXT lines."""
    return getattr(getattr(error, "diag", None), "message_primary", None) or " ".join(str(error).split())


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ledger_error(error: Any) -> Exception:
    message = _primary(error)
    code = getattr(error, "sqlstate", None)
    if code == "P0003":
        return ForeignSeed(f"{message}: the ledger refuses to roll with it or reveal it")
    if code == "P0002":
        return NoSeed(message)
    if code in ("P0005", "P0006"):
        return RuleViolation(message)
    if code == "P0007":  # another transaction deals the same number and has not ended
        return OpenDeal(f"the ledger cannot roll now: {message}; try again then, or roll table dice (--dice)")
    if code == "55P03":  # lock_timeout: the same, met by a deal of an older version's functions, which waited
        return Conflict(f"another connection is dealing the same ledger roll and holds it ({message}): try again")
    if code == "42501":
        return _Refused(f"the database refused the ledger dice: {message}")
    return BadInput(f"the database refused the ledger dice: {message}")


def expression_for(sides: list[int]) -> str:
    """An expression that rolls exactly these dice: `ND<s>` (`ND66` for more than 100 six-sided dice,
    two a D66), or `shuffle K` for a shuffle's dice."""
    if sides and all(s == sides[0] for s in sides):
        if len(sides) > MOST_DICE and sides[0] == 6 and len(sides) % 2 == 0:
            return f"{len(sides) // 2}D66"
        return f"{'' if len(sides) == 1 else len(sides)}D{sides[0]}"
    return f"shuffle {len(sides) + 1}"


MOST_DICE = 100  # of a roll (ledger.dice.parse_expression); a D66 is two six-sided dice
