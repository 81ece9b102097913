"""Numbers read from the address bar (ui/url.py): ASCII digits only, bounded before they are converted."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.url import url_int


@pytest.mark.parametrize(
    "text",
    [
        "³",  # str.isdigit accepts it, int refuses it
        "①",  # likewise
        "٣",  # an Arabic-Indic 3: int would read it as 3
        "３",  # a full-width 3: likewise
        "9" * 5000,  # int refuses more than 4,300 digits (and would work through them first)
        "6",  # one past the end
        "0",  # one before the start
        "-1",
        "+2",
        " 2",
        "2 ",
        "2.0",
        "1e1",
        "0x3",
        "",
        "03",  # more digits than 5 has
        "2\n",
        None,
        ["2", "3"],
    ],
)
def test_anything_but_a_few_ascii_digits_in_range_is_no_number(text):
    assert url_int(text, 1, 5) is None


@pytest.mark.parametrize(("text", "value"), [("1", 1), ("5", 5), ("3", 3), ("250", 250), ("007", 7)])
def test_ascii_digits_in_range_are_their_number(text, value):
    assert url_int(text, 1, 250) == value


@given(st.text(max_size=30))
def test_any_text_gives_none_or_a_number_in_range_written_as_its_ascii_digits(text):
    value = url_int(text, 1, 5)
    assert value is None or (1 <= value <= 5 and text == str(value))


@given(st.integers(min_value=0, max_value=10**6))
def test_every_number_in_range_written_plainly_is_read_back(number):
    assert url_int(str(number), 0, 10**6) == number
