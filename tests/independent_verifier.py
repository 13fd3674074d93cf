"""An independent verifier of a campaign-ledger audit trail (JSON Lines), written from
docs/audit-format.md alone: it imports nothing of the project, only json, hashlib, hmac and sys.

    python independent_verifier.py TRAIL.jsonl

Exit 0 and a summary when the trail verifies; exit 1 and "line N: problem" at the first line
that does not (exit 2 when the file cannot be read).
"""

import hashlib
import hmac
import json
import sys

GENESIS = "0" * 64
RECORD_KEYS = {"position", "type", "recorded_at", "actor", "tx", "payload", "prev_hash"}
LINE_KEYS = RECORD_KEYS | {"hash", "annotations"}


class Bad(Exception):
    pass


def reject_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise Bad("key %r appears twice" % key)
        obj[key] = value
    return obj


def reject_number(text):
    raise Bad("%s is not an integer" % text)


def parse(text):
    try:
        obj = json.loads(text, object_pairs_hook=reject_duplicates, parse_float=reject_number,
                         parse_constant=reject_number)
    except ValueError as error:
        raise Bad("not JSON: %s" % error)
    try:  # an escape such as \ud800 alone reads as a string no UTF-8 holds: no hash can be taken of it
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Bad("a string holds a lone UTF-16 surrogate")
    return obj


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def is_hex(text, length):
    return isinstance(text, str) and len(text) == length and all(c in "0123456789abcdef" for c in text)


def is_int(value):
    return type(value) is int


def die_sides(expression):
    """The sides of each physical die of a recorded expression, in order."""
    words = expression.split(" ")
    if words[0] == "shuffle" and len(words) == 2 and words[1].isdecimal() and int(words[1]) >= 1:
        return list(range(int(words[1]), 1, -1))  # position i (from the last down) swaps with a die of i+1 sides
    keep = None
    if len(words) == 4 and words[1] == "keep" and words[3] == "highest" and words[2].isdecimal():
        keep = int(words[2])
    elif len(words) != 1:
        raise Bad("%r is not a dice expression" % expression)
    count_text, d, sides_text = words[0].partition("D")
    if d != "D" or not sides_text.isdecimal() or (count_text and not count_text.isdecimal()):
        raise Bad("%r is not a dice expression" % expression)
    count, sides = int(count_text or "1"), int(sides_text)
    if keep is not None and not 1 <= keep <= count:
        raise Bad("%r keeps more dice than it rolls" % expression)
    if sides == 66:
        return [6, 6] * count
    if sides == 3:
        return [6] * count
    return [sides] * count


def counts_as(expression, faces):
    """(value, kept) of a roll: D66 = tens and units, D3 = D6 halved up, keep highest (earlier wins ties)."""
    if expression.startswith("shuffle"):
        return 0, []
    words = expression.split(" ")
    sides = int(words[0].partition("D")[2])
    if sides == 66:
        values = [faces[i] * 10 + faces[i + 1] for i in range(0, len(faces), 2)]
    elif sides == 3:
        values = [(f + 1) // 2 for f in faces]
    else:
        values = list(faces)
    if len(words) == 1:
        return sum(values), []
    ranked = sorted(range(len(values)), key=lambda i: (-values[i], i))[: int(words[2])]
    kept = sorted(ranked)
    return sum(values[i] for i in kept), kept


def ledger_face(seed, campaign_id, roll, die, sides):
    limit = (2 ** 64 // sides) * sides
    attempt = 0
    while True:
        message = ("%s:%d:%d:%d" % (campaign_id, roll, die, attempt)).encode("utf-8")
        x = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1
        attempt += 1


def shuffled(cards, faces):
    """Fisher-Yates from the last position down: position i swaps with position face - 1."""
    order = list(cards)
    for face, i in zip(faces, range(len(order) - 1, 0, -1)):
        order[i], order[face - 1] = order[face - 1], order[i]
    return order


def deck_before_shuffle(deck, starting_orders, deck_events, voided):
    """The order a ledger shuffle of `deck` starts from: the deck's starting order (header `decks`)
    if it was never shuffled, else the cards drawn since its last shuffle, in the order drawn. Only
    transactions not voided at this point count."""
    pile = discards = None
    for tx, kind, p in deck_events:
        if tx in voided or p.get("deck") != deck:
            continue
        if kind == "deck.shuffled":
            pile, discards = list(p.get("cards", [])), []
        else:  # card.drawn
            if pile is None:
                pile, discards = [], []
            if p.get("card") in pile:
                pile.remove(p["card"])
            discards.append(p.get("card"))
    if pile is None:
        if deck not in starting_orders:
            raise Bad("the header gives no starting order for deck %r" % deck)
        return list(starting_orders[deck])
    return discards


def is_utc_time(text):
    """YYYY-MM-DDTHH:MM:SS.ffffffZ in ASCII digits, a day the calendar has, each other part in its
    range (second 60: a leap second)."""
    if len(text) != 27 or text[4] + text[7] + text[10] + text[13] + text[16] + text[19] + text[26] != "--T::.Z":
        return False
    parts = [text[0:4], text[5:7], text[8:10], text[11:13], text[14:16], text[17:19], text[20:26]]
    if not all(part.isascii() and part.isdigit() for part in parts):
        return False
    year, month, day, hour, minute, second = (int(part) for part in parts[0:6])
    if not (1 <= month <= 12 and hour <= 23 and minute <= 59 and second <= 60):
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return year >= 1 and 1 <= day <= days


def check_types(where, record, line):
    for key in ("position", "tx"):
        if not is_int(record[key]):
            raise Bad("%s: %s must be an integer" % (where, key))
    for key in ("type", "recorded_at", "actor"):
        if not isinstance(record[key], str):
            raise Bad("%s: %s must be a string" % (where, key))
    if not is_utc_time(record["recorded_at"]):
        raise Bad("%s: recorded_at must be YYYY-MM-DDTHH:MM:SS.ffffffZ" % where)
    if not isinstance(record["payload"], dict):
        raise Bad("%s: payload must be an object" % where)
    if not is_hex(record["prev_hash"], 64) or not is_hex(line["hash"], 64):
        raise Bad("%s: hashes are 64 lowercase hex digits" % where)


def verify(data):
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    lines = []
    for number, raw in enumerate(raw_lines, start=1):
        try:
            obj = parse(raw.decode("utf-8"))
        except (UnicodeDecodeError, Bad) as error:
            raise Bad("line %d: %s" % (number, error))
        if not isinstance(obj, dict):
            raise Bad("line %d: not a JSON object" % number)
        lines.append(obj)
    if not lines or lines[0].get("kind") != "header":
        raise Bad("line 1: the trail must start with its header line")
    header = lines[0]
    if header.get("format") != "campaign-ledger-audit" or not is_int(header.get("version")) or header["version"] != 1:
        raise Bad("line 1: not a version 1 campaign-ledger-audit trail")
    if not isinstance(header.get("hash"), dict) or header["hash"].get("algorithm") != "sha256":
        raise Bad("line 1: the hash algorithm must be sha256")
    if len(lines) < 2 or lines[-1].get("kind") != "trailer":
        raise Bad("line %d: the trailer line is missing" % (len(lines) + 1))
    trailer = lines[-1]
    events = lines[1:-1]

    starting_orders = header.get("decks", {})
    if not isinstance(starting_orders, dict):
        raise Bad("line 1: decks must be an object")
    deck_events = []  # (tx, type, payload) of every deck.shuffled and card.drawn so far
    voided_so_far = set()
    shuffles_checked = 0
    shuffle_problems = []
    prev_hash, last_tx = GENESIS, 0
    campaign = ruleset = None
    epoch = None  # the committed epoch in use
    commitments, revealed, revealed_tx, abandoned_tx = {}, {}, {}, {}
    next_roll = 0
    ledger_rolls = []  # (line, roll, epoch, faces, sides)
    thrown = {}  # roll -> (expression, purpose, faces, source, epoch), for rolls a reroll copied
    origin = {}  # roll -> the roll it copies, or itself
    rolls_of = {}  # transaction -> its roll numbers
    # The latest transaction that voided or answered others, those the next ones decide again (a reroll's
    # target, those voided because of a target, an answered pending one), and the rolls copied since.
    handing_back, handed_back, handed_back_by, copied = 0, [], None, set()
    # A pending decision stored right after a reroll (or an answer) that hands back several -> the others, which its
    # answer hands back after it (a cascading reroll stopped pending decides them again once answered).
    carried = {}
    disputed = {}  # a reroll's transaction -> the original of the roll it disputed
    command = None  # of the transaction being read
    pending = set()  # transactions stored pending, not answered yet
    voids = {}  # voided transaction -> its annotation
    previous = None
    for offset, line in enumerate(events):
        number = offset + 2
        where = "line %d" % number
        if "kind" in line:
            raise Bad("%s: expected an event line" % where)
        if set(line) != LINE_KEYS:
            raise Bad("%s: its keys must be exactly %s" % (where, ", ".join(sorted(LINE_KEYS))))
        record = {key: line[key] for key in RECORD_KEYS}
        check_types(where, record, line)
        if record["position"] != offset + 1:
            raise Bad("%s: position %s where %d was expected" % (where, record["position"], offset + 1))
        body = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        if sha256_hex(body.encode("utf-8")) != line["hash"]:
            raise Bad("%s: hash does not match its record" % where)
        if record["prev_hash"] != prev_hash:
            raise Bad("%s: prev_hash is not the previous event's hash" % where)
        if record["tx"] not in (last_tx, last_tx + 1) or (offset == 0 and record["tx"] != 1):
            raise Bad("%s: transaction %s follows %d" % (where, record["tx"], last_tx))
        prev_hash, last_tx = line["hash"], record["tx"]
        kind, p = record["type"], record["payload"]

        if kind == "campaign.started":
            if campaign is not None:
                raise Bad("%s: a second campaign.started" % where)
            campaign = {"id": p.get("campaign_id"), "name": p.get("name")}
        elif kind == "ruleset.pinned" and ruleset is None:
            ruleset = {"id": p.get("ruleset"), "version": p.get("version"), "options": p.get("options", {})}
        elif kind == "seed.committed":
            expected = 0 if epoch is None else epoch + 1
            if not is_int(p.get("epoch")) or p["epoch"] != expected or not is_hex(p.get("commitment"), 64):
                raise Bad("%s: expected the commitment of epoch %d" % (where, expected))
            if expected > 0 and record["tx"] not in (revealed_tx.get(expected - 1), abandoned_tx.get(expected - 1)):
                raise Bad("%s: epoch %d is committed without revealing (or leaving behind) epoch %d in the same "
                          "transaction" % (where, expected, expected - 1))
            epoch = expected
            commitments[epoch] = p["commitment"]
        elif kind == "seed.revealed":
            seed = p.get("seed")
            if not is_int(p.get("epoch")) or p["epoch"] != epoch or epoch in revealed or not is_hex(seed, 64):
                raise Bad("%s: reveals epoch %r, but epoch %r is in use" % (where, p.get("epoch"), epoch))
            if sha256_hex(bytes.fromhex(seed)) != commitments[epoch]:
                raise Bad("%s: the seed of epoch %d does not match its commitment" % (where, epoch))
            revealed[epoch], revealed_tx[epoch] = seed, record["tx"]
        elif kind == "seed.abandoned":
            if not is_int(p.get("epoch")) or p["epoch"] != epoch or epoch in revealed or epoch in abandoned_tx:
                raise Bad("%s: leaves epoch %r behind, but epoch %r is in use" % (where, p.get("epoch"), epoch))
            abandoned_tx[epoch] = record["tx"]
        elif kind == "dice.rolled":
            n, faces, source = p.get("roll"), p.get("faces"), p.get("source")
            if not is_int(n) or n != next_roll:  # false is no 0
                raise Bad("%s: roll %r where R%d was expected" % (where, n, next_roll))
            next_roll += 1
            try:
                sides = die_sides(p.get("expression"))
            except (Bad, AttributeError) as error:
                raise Bad("%s: %s" % (where, error))
            if (not isinstance(faces, list) or len(faces) != len(sides)
                    or not all(is_int(f) and 1 <= f <= s for f, s in zip(faces, sides))):
                raise Bad("%s: faces %r cannot come from %s" % (where, faces, p["expression"]))
            # Fields at their default value are left out of a payload: kept [], epoch and copy_of null.
            if [p.get("value"), p.get("kept", [])] != list(counts_as(p["expression"], faces)):
                raise Bad("%s: R%d does not count as %r" % (where, n, p.get("value")))
            thrown[n] = (p["expression"], p.get("purpose"), faces, source, p.get("epoch"))
            copy_of = p.get("copy_of")
            origin[n] = n if copy_of is None else copy_of
            rolls_of.setdefault(record["tx"], []).append(n)
            if copy_of is not None:
                # A transaction decided again right after a void, reroll or answer keeps the dice of one it
                # decides again: a copy names the original roll (never a copy) and shows its very dice.
                if not (is_int(copy_of) and 0 <= copy_of < n) or origin[copy_of] != copy_of:
                    raise Bad("%s: R%d claims to copy R%r, which is no earlier original roll" % (where, n, copy_of))
                if not handing_back < record["tx"] <= handing_back + len(handed_back) or not any(
                        origin[m] == copy_of for t in handed_back for m in rolls_of.get(t, [])):
                    raise Bad("%s: R%d copies R%d, but no transaction decided again here holds it" % (where, n, copy_of))
                if disputed.get(handing_back) == copy_of:
                    raise Bad("%s: R%d copies R%d, the roll a reroll disputed" % (where, n, copy_of))
                if copy_of in copied:
                    raise Bad("%s: R%d copies R%d again: a roll is handed back once" % (where, n, copy_of))
                copied.add(copy_of)
                if thrown[copy_of] != thrown[n]:
                    raise Bad("%s: R%d claims to copy R%r, but its dice differ" % (where, n, copy_of))
            elif source == "ledger":
                if epoch is None or not is_int(p.get("epoch")) or p["epoch"] != epoch or epoch in revealed:
                    raise Bad("%s: ledger dice of epoch %r while epoch %r is in use" % (where, p.get("epoch"), epoch))
                ledger_rolls.append((where, n, epoch, faces, sides))
            elif source != "table" or p.get("epoch") is not None:
                raise Bad("%s: dice come from the table (no epoch) or the ledger" % where)
        elif kind == "deck.shuffled" and p.get("source") == "ledger":
            cards = p.get("cards")
            prior = previous["payload"] if previous and previous["type"] == "dice.rolled" else {}
            if not isinstance(cards, list) or prior.get("roll") != p.get("roll") \
                    or prior.get("expression") != "shuffle %d" % len(cards):
                raise Bad("%s: a ledger shuffle must follow its 'shuffle K' roll" % where)
            # Only new shuffles name their starting orders in the header; a trail without them has none to check.
            if "decks" in header:
                try:
                    before = deck_before_shuffle(p.get("deck"), starting_orders, deck_events, voided_so_far)
                except Bad as error:
                    raise Bad("%s: %s" % (where, error))
                # Reported after the dice are re-derived: a forged shuffle die is named as a die first.
                if shuffled(before, prior["faces"]) != cards:
                    shuffle_problems.append("%s: shuffling %r with R%d's faces gives %r, not %r"
                                            % (where, p.get("deck"), p["roll"], shuffled(before, prior["faces"]), cards))
                shuffles_checked += 1
        if kind == "command.recorded":
            command = p.get("command")
            roll = p["args"].get("roll") if isinstance(p.get("args"), dict) else None
            if command == "reroll" and is_int(roll) and roll in origin:
                disputed[record["tx"]] = origin[roll]
        if kind == "decision.pending":
            pending.add(record["tx"])
            if handing_back == record["tx"] - 1 and handed_back_by in ("reroll", "answer") and len(handed_back) > 1:
                carried[record["tx"]] = handed_back[1:]
            leaves = p.get("leaves", [])  # a transaction a cascade decided again, stopped: its answer decides these
            if leaves:
                if (not isinstance(leaves, list) or not all(is_int(t) for t in leaves)
                        or not handing_back < record["tx"] <= handing_back + len(handed_back)
                        or not set(leaves) <= set(handed_back)):
                    raise Bad("%s: leaves %r to its answer, but no void, reroll or answer just before it handed "
                              "them back" % (where, leaves))
                carried[record["tx"]] = leaves
        if kind in ("transaction.voided", "decision.answered"):
            if not is_int(p.get("target")):
                raise Bad("%s: its target must be a transaction number" % where)
            if record["tx"] != handing_back:
                handing_back, handed_back, handed_back_by, copied = record["tx"], [], command, set()
            if kind == "decision.answered":
                if p.get("target") not in pending:
                    raise Bad("%s: answers T%r, which is no pending decision" % (where, p.get("target")))
                pending.discard(p.get("target"))
                handed_back += [p.get("target"), *carried.pop(p.get("target"), [])]
            else:
                pending.discard(p.get("target"))  # a pending decision voided is answered by none
                if p.get("because_of") is not None or command == "reroll":  # a plain void's target is decided again by none
                    handed_back.append(p.get("target"))
        if kind == "transaction.voided":
            voided_so_far.add(p.get("target"))
            voids[p.get("target")] = {
                "voided_by": record["tx"],
                "voided_by_actor": record["actor"],
                "voided_at": record["recorded_at"],
                "reason": p.get("reason"),
            }
        if kind in ("deck.shuffled", "card.drawn"):
            deck_events.append((record["tx"], kind, p))
        previous = record

    if not events or campaign is None:
        raise Bad("line %d: the trail holds no campaign.started event" % (len(lines)))
    for offset, line in enumerate(events):
        tx = line["tx"]
        expected = {"voided": voids[tx]} if tx in voids else {}
        if line["annotations"] != expected:
            raise Bad("line %d: annotations do not match the chain's voids" % (offset + 2))
    if header.get("campaign") != campaign or header.get("ruleset") != ruleset:
        raise Bad("line 1: the header's campaign or ruleset is not the chain's")
    end = "line %d" % len(lines)
    if not is_int(trailer.get("count")) or trailer["count"] != len(events) or trailer.get("head") != prev_hash:
        raise Bad("%s: the trailer's count or head is not the chain's" % end)
    seeds = dict(revealed)
    trailer_seeds = trailer.get("revealed_seeds")
    if not isinstance(trailer_seeds, dict):
        raise Bad("%s: revealed_seeds must be an object" % end)
    for key, seed in trailer_seeds.items():
        e = int(key) if key.isdecimal() else None
        if (e not in commitments or not is_hex(seed, 64) or sha256_hex(bytes.fromhex(seed)) != commitments[e]
                or revealed.get(e, seed) != seed):
            raise Bad("%s: the seed of epoch %s does not match its commitment" % (end, key))
        seeds[e] = seed
    checked = 0
    for where, n, e, faces, sides in ledger_rolls:
        if e in seeds:
            seed = bytes.fromhex(seeds[e])
            derived = [ledger_face(seed, campaign["id"], n, j, s) for j, s in enumerate(sides)]
            if derived != faces:
                raise Bad("%s: ledger roll R%d shows %r, the seed gives %r" % (where, n, faces, derived))
            checked += 1
    if shuffle_problems:
        raise Bad(shuffle_problems[0])
    return "OK %d events, head %s, %d ledger rolls re-derived, %d awaiting a seed, %d shuffles re-derived" % (
        len(events), prev_hash, checked, len(ledger_rolls) - checked, shuffles_checked)


def main(argv):
    if len(argv) != 2:
        print("usage: independent_verifier.py TRAIL.jsonl", file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as trail:
            data = trail.read()
    except OSError as error:
        print("cannot read %s: %s" % (argv[1], error), file=sys.stderr)
        return 2
    try:
        print(verify(data))
    except Bad as error:
        print("FAIL " + str(error))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
