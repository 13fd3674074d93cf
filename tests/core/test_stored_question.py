"""A pending decision's stored question against the one its command asks again with its recorded dice
(`deciding.stored_question_problem`), as `campaign import` and `replay --check` compare them: what the
dice decide (the answer key, the choices, the numbers the question shows) must be the same; the wording
around them may have changed since it was recorded, and an older ledger may have offered fewer choices."""

from __future__ import annotations

import pytest

from ledger import events as ev
from ledger.deciding import stored_question_problem
from ledger.errors import NeedsAnswer

ASKED = NeedsAnswer("keep", "Reikland Rats rolled [3, 5, 5, 5, 2, 5, 4]: which 6 dice count (or fewer)?",
                    ["5,5,5,5,4,3", "5,5,5,5,4,2", "5,5,5,5,3,2", "5,5,5,4,3,2"])


def stored(question: str = ASKED.key, prompt: str = ASKED.prompt, options: list[str] | None = None) -> ev.DecisionPending:
    return ev.DecisionPending(question=question, prompt=prompt, options=ASKED.options if options is None else options)


@pytest.mark.parametrize(("given", "problem"), [
    pytest.param(stored(), None, id="the question asked again"),
    pytest.param(stored(prompt="Reikland Rats rolled [3, 5, 5, 5, 2, 5, 4]: which 6 dice count?"), None,
                 id="worded as before 4662e23"),
    pytest.param(stored(question="KEEP"), None, id="its key typed otherwise"),
    pytest.param(stored(options=ASKED.options[:3]), None, id="fewer choices, as an older ledger offered"),
    pytest.param(stored(options=[*ASKED.options[:3], "6,5,5,5,5,3"]), (
        "its stored question offers keep=5,5,5,5,4,3|5,5,5,5,4,2|5,5,5,5,3,2|6,5,5,5,5,3, but deciding it again with "
        "its recorded dice offers keep=5,5,5,5,4,3|5,5,5,5,4,2|5,5,5,5,3,2|5,5,5,4,3,2"), id="a choice not offered"),
    pytest.param(stored(question="multiple"), (
        "its stored question offers multiple=5,5,5,5,4,3|5,5,5,5,4,2|5,5,5,5,3,2|5,5,5,4,3,2, but deciding it again "
        "with its recorded dice offers keep=5,5,5,5,4,3|5,5,5,5,4,2|5,5,5,5,3,2|5,5,5,4,3,2"), id="another question"),
    pytest.param(stored(prompt="Reikland Rats rolled [3, 5, 5, 5, 2, 5, 6]: which 6 dice count (or fewer)?"), (
        "its stored question reads “Reikland Rats rolled [3, 5, 5, 5, 2, 5, 6]: which 6 dice count (or fewer)?”, but "
        "deciding it again with its recorded dice reads “Reikland Rats rolled [3, 5, 5, 5, 2, 5, 4]: which 6 dice "
        "count (or fewer)?”"), id="a die it shows differs"),
])
def test_a_stored_question_is_the_one_asked_again_where_the_dice_decide(given, problem):
    # Given the stored pending decision, when its command asks ASKED again, then it differs by this (or not)
    assert stored_question_problem(given, ASKED) == problem
