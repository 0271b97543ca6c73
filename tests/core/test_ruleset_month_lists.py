"""A ruleset's list of month numbers is refused naming every entry that is no month, not the first only."""

from __future__ import annotations

import pytest

from referee.ruleset import load_ruleset
from referee.schema import FieldError


# Bug (new-user try): fuke.excluded_months = [13, 11, 0] named only 13.
def test_a_month_list_names_every_entry_that_is_no_month():
    with pytest.raises(FieldError) as e:
        load_ruleset("roppyakken", {"fuke.excluded_months": [13, 11, 0]})
    assert (e.value.path, e.value.value, e.value.rule) == ("options.fuke.excluded_months", [13, 0], "month")
    assert "field 'options.fuke.excluded_months' has 13, 0; expected months 1-12" in e.value.message


def test_a_month_list_with_one_entry_that_is_no_month_names_its_place():
    with pytest.raises(FieldError) as e:
        load_ruleset("roppyakken", {"fuke.excluded_months": [11, 13]})
    assert (e.value.path, e.value.value) == ("options.fuke.excluded_months[1]", 13)
