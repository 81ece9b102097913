"""Room codes, lecturer tokens and student ids (classroom/codes.py)."""

from __future__ import annotations

import pytest

from classroom.api import CODE_ALPHABET, CODE_LENGTH, ClassError
from classroom.codes import is_code, is_student_id, new_code, new_student_id, new_token, normal_code, same_token


def test_a_new_code_is_code_length_characters_of_the_alphabet_and_codes_differ():
    codes = {new_code() for _ in range(200)}
    assert all(len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert len(codes) == 200  # 31**6 codes: 200 draws colliding would be a broken generator
    assert not set("0O1IL") & set(CODE_ALPHABET)


def test_a_token_carries_at_least_128_bits_and_is_url_safe():
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    # token_urlsafe(24): 24 bytes in base64 without padding are 32 characters of 6 bits each = 192 bits
    assert all(len(token) == 32 and is_student_id(token) for token in tokens)


@pytest.mark.parametrize(
    ("typed", "code"),
    [("ab3k9x", "AB3K9X"), (" AB3-K9X ", "AB3K9X"), ("ab3 k9x", "AB3K9X"), ("AB3\u2013K9X", "AB3K9X")],
)
def test_a_typed_code_is_normalised(typed, code):
    assert normal_code(typed) == code
    assert is_code(code)


@pytest.mark.parametrize(
    "typed",
    [
        "AB3K9",
        "AB3K9XY",
        "AB0K9X",
        "ABOK9X",
        "AB1K9X",
        "ABIK9X",
        "ABLK9X",
        "",
        "ÄB3K9X",
        "ABCDß",
        "<b>AB3K9X",
        7,
        None,
        "A" * 10_000,
    ],
)
def test_a_typed_code_outside_the_alphabet_is_no_class(typed):
    with pytest.raises(ClassError) as refused:
        normal_code(typed)
    assert refused.value.code == "class_unknown"
    assert not is_code(typed)


def test_student_ids_are_random_and_only_their_shape_is_accepted():
    ids = {new_student_id() for _ in range(100)}
    assert len(ids) == 100 and all(is_student_id(i) for i in ids)
    for bad in ("", "short", "has space in it 12345", "x" * 65, "<script>alert(1)</script>", None, 12):
        assert not is_student_id(bad)


def test_the_token_comparison_accepts_only_the_token_itself():
    token = new_token()
    assert same_token(token, token)
    assert not same_token(token[:-1], token)
    assert not same_token(token + "A", token)
    assert not same_token("", token)
    assert not same_token(None, token)
    assert not same_token("ñ" * 32, token)
