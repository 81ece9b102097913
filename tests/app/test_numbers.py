"""Numbers as the reader reads them: vectors whose entries carry a thousands separator stay readable."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.app.helpers import open_page, page_text
from ui.numbers import MOST_DECIMALS, apart, short_vector, vector


@pytest.mark.parametrize(
    ("values", "lang", "expected"),
    [
        ([1, 2, 3], "en", "[1, 2, 3]"),
        ([1, 2, 3], "es", "[1; 2; 3]"),
        ([1000, 1001], "en", "[1,000; 1,001]"),  # not "[1,000, 1,001]": four numbers at a glance
        ([1000, 1001], "es", "[1000; 1001]"),  # four digits: no point (RAE)
        ([10000, 10001], "es", "[10.000; 10.001]"),  # five: the point Argentine readers write
        ([0.5, 2.5], "es", "[0,5; 2,5]"),
    ],
)
def test_a_short_vector_separates_its_entries_unambiguously(values, lang, expected):
    assert short_vector(values, lang=lang) == expected


def test_a_vector_with_a_thousands_comma_is_separated_by_semicolons_in_english():
    assert vector([0.1, 2000.5], lang="en") == "[+0.100; +2,000.500]"
    assert vector([0.1, 0.2], lang="en") == "[+0.100, +0.200]"


@pytest.mark.parametrize(("lang", "huge"), [("en", "[1,000; 1,001]"), ("es", "[1000; 1001]")])
def test_the_softmax_pages_huge_scores_read_as_two_numbers(lang, huge):
    at = open_page("pages/softmax.py", lang)
    assert huge in page_text(at) + " ".join(str(o) for box in at.selectbox for o in box.options) + " ".join(
        str(o) for group in at.button_group for o in group.options
    )


@given(st.floats(min_value=-1.0, max_value=1.0))
def test_a_value_apart_from_another_is_never_written_as_it_and_each_digit_is_its_rounding(value):
    written = apart(value, 1.0, lang="en")
    decimals = len(written.split(".")[1])
    number = Decimal(written.replace("−", "-"))
    assert decimals >= 3
    assert number == Decimal(repr(value)).quantize(Decimal(1).scaleb(-decimals), "ROUND_HALF_UP")
    if 1.0 - value >= 10.0**-MOST_DECIMALS:  # far enough from 1 for the digits to tell: they do
        assert number != 1
    if decimals > 3:  # the extra digits are only the ones it takes
        assert Decimal(repr(value)).quantize(Decimal(1).scaleb(1 - decimals), "ROUND_HALF_UP") == 1
