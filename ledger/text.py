"""The text the ledger takes from people, and how it shows text back.

Every argument of the command line is checked here before a command sees it: it must be valid
UTF-8 (Python hands an undecodable byte over as a lone surrogate), hold no control character
(a newline in a name would forge lines in `log`), no hidden bidirectional formatting character
(U+202E would disguise a name) and no other invisible one (a zero-width space would too), and is
normalised to Unicode NFC, so that two spellings of one name are the same name. Names take at most
NAME_LIMIT characters and free texts (notes, reasons) at most TEXT_LIMIT. When text is shown,
anything that slipped in (from an older store or an imported trail) is escaped, and right-to-left
text is isolated so that it cannot reorder the rest of the line.
"""

from __future__ import annotations

import re
import unicodedata

from collections.abc import Iterable

from ledger.errors import BadInput

VOID_MARK = "[VOIDED"  # how `log` marks a voided transaction, after its line
NAME_LIMIT = 80
TEXT_LIMIT = 2000

# Explicit directional formatting characters (embeddings, overrides, isolates, marks).
BIDI_FORMATTING = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_FSI, _PDI = "\u2068", "\u2069"
_ISOLATES = frozenset("\u2066\u2067\u2068\u2069")


def _forbidden(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cs") or char in BIDI_FORMATTING


# Invisible: format characters (zero-width space and joiners, word joiner, byte-order mark, tags,
# soft hyphen), line and paragraph separators, and the other characters Unicode makes default
# ignorable (DerivedCoreProperties.txt, Default_Ignorable_Code_Point: the combining grapheme joiner,
# the Hangul fillers, the Khmer inherent vowels, the variation selectors). Refused in what people
# type ("A\u200b" would pass for the warband "A"); shown as stored, since the read models hold what
# was shown. A variation selector is an emoji's own ("\u2764\ufe0f", a red heart) after a symbol.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
              (0xE0100, 0xE01EF))
_VARIATION_SELECTORS = (0xFE00, 0xFE0F)


def _invisible_at(text: str, index: int) -> bool:
    char = text[index]
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
        return True
    code = ord(char)
    if not any(low <= code <= high for low, high in _IGNORABLE):
        return False
    after_a_symbol = index > 0 and unicodedata.category(text[index - 1]) == "So"
    return not (_VARIATION_SELECTORS[0] <= code <= _VARIATION_SELECTORS[1] and after_a_symbol)


def _invisible_written_out(text: str, keep: frozenset[str] = frozenset()) -> str:
    """The invisible characters of `text` (but those in `keep`) written out as \\uXXXX."""
    return "".join(f"\\u{ord(char):04x}" if _invisible_at(text, i) and char not in keep else char
                   for i, char in enumerate(text))


def _label(text: str) -> str:
    return _invisible_written_out(escaped(text if len(text) <= 40 else text[:40] + "…"))


def checked_argument(text: str, what: str = "argument") -> str:
    """One command-line argument as NFC text, or BadInput naming what is wrong with it (`what`: the
    words for it)."""
    for char in text:
        if unicodedata.category(char) == "Cs":
            raise BadInput(f"{what} '{_label(text)}' is not valid UTF-8 text")
        if _forbidden(char):
            raise BadInput(f"{what} '{_label(text)}' holds the control character U+{ord(char):04X}; "
                           "names and texts may not hold one")
    for index, char in enumerate("" if text.isascii() else text):
        if _invisible_at(text, index):
            raise BadInput(f"{what} '{_label(text)}' holds the invisible character U+{ord(char):04X}, which would "
                           "make it look like another; names and texts may not hold one")
    if VOID_MARK.casefold() in text.casefold():
        raise BadInput(f"{what} '{_label(text)}' holds '{VOID_MARK}', the log's mark of a voided transaction: a "
                       "reason holding it would pass a live one for voided")
    if len(text) > TEXT_LIMIT:
        raise BadInput(f"{what} '{_label(text)}' is {len(text)} characters long; "
                       f"the limit is {TEXT_LIMIT} (names: {NAME_LIMIT})")
    return unicodedata.normalize("NFC", text)


def checked_actor(actor: str, where: str | None = None) -> str:
    """Who acts, as the command line takes it (--as or CAMPAIGN_ACTOR: an argument, a name, not blank),
    or BadInput; `where` (a trail's line) for an actor read from a trail, which is refused where the
    command line would refuse it, as it would be recorded there."""
    what = f"{where}: the actor" if where else None
    taken = checked_argument(actor, what or "argument")
    check_name(taken, what or "the actor (--as)")
    if not taken.strip():
        said = f"{what} is blank" if what else "say who is acting with --as NAME (or CAMPAIGN_ACTOR)"
        raise BadInput(f"{said}: it is recorded on every event")
    return taken


def whole_number(text: str, digits: int = 6) -> int | None:
    """`text` as a whole number of at most `digits` decimal digits, else None: for what is typed at a
    prompt, where no argument limit applies and int() fails on more than 4300 digits."""
    return int(text) if text.isdecimal() and len(text) <= digits else None


# The fields of a command that name something new (a warband, a fighter, a player).
NAME_FIELDS = ("name", "player", "faction")


def check_name(name: str, what: str = "the name") -> None:
    if len(name) > NAME_LIMIT:
        raise BadInput(f"{what} '{_label(name)}' is {len(name)} characters long; names take at most {NAME_LIMIT}")


def check_names(command: object) -> None:
    """The names a command gives (its NAME_FIELDS) are no longer than NAME_LIMIT."""
    for field in NAME_FIELDS:
        value = getattr(command, field, None)
        if isinstance(value, str):
            check_name(value, f"the {field}")


def _plain(text: str) -> bool:
    """Printable ASCII: nothing to escape, nothing written right to left (most names and notes)."""
    return text.isascii() and text.isprintable()


def escaped(text: str, *, keep: frozenset[str] = frozenset()) -> str:
    """Control and bidirectional formatting characters (but those in `keep`) written out as \\uXXXX."""
    if _plain(text) or not any(_forbidden(char) and char not in keep for char in text):
        return text
    return "".join(f"\\u{ord(char):04x}" if _forbidden(char) and char not in keep else char for char in text)


def _isolated(text: str) -> str:
    if not _plain(text) and any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        return _FSI + text + _PDI
    return text


def shown(text: str) -> str:
    """A value from the store (a name, a note) as it may be shown: escaped, and right-to-left text isolated."""
    return _isolated(escaped(text))


def visible(text: str) -> str:
    """Text as a line of the log shows it: the invisible characters and the log's void mark that
    text stored before they were refused (or imported) may hold, written out (`\\u200b`, `\\[VOIDED`),
    so that a name passes for no other and a live line for no voided one. Display only: the read
    models keep what was shown when they were written."""
    if text.isascii() and VOID_MARK.casefold() not in text.casefold():
        return text
    written = _invisible_written_out(text, keep=_ISOLATES)  # the isolates `shown` put around right-to-left text stay
    return re.sub(re.escape(VOID_MARK), lambda found: "\\" + found.group(0), written, flags=re.IGNORECASE)


def written_out(text: str) -> str:
    """Text for a file people read (the Markdown chronicle, the trail's rows as CSV or Markdown),
    whatever the store holds: control and bidirectional formatting characters written out as
    \\uXXXX (an ESC or a newline in an actor would begin a line of its own), but the isolates `shown`
    puts around right-to-left text (a log line's description holds them)."""
    return escaped(text, keep=_ISOLATES)


def shown_sentence(text: str) -> str:
    """A sentence made of values already `shown` (a log line's description): escaped again, keeping
    the isolates its values brought, and isolated as a whole from the columns around it."""
    return _isolated(escaped(text, keep=_ISOLATES))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def possessive(name: str) -> str:
    """`name`'s, or `name`' when it ends in s ("Reikland Rats' henchman groups", not "Rats's")."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def slug(name: str) -> str:
    """A name as an id: lower case, each run of other characters one '-' ("Arrer Boyz" is arrer-boyz)."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return text or "x"


def as_spelled(name: str, known: Iterable[str]) -> str | None:
    """The rules' own spelling of `name`, whatever its case; None when the rules have no such name."""
    folded = name.casefold()
    return next((spelling for spelling in known if spelling.casefold() == folded), None)
