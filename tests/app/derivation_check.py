"""Recompute every line of a rendered derivation from the numbers written on it, as a student with a calculator.

`check_block(text, lang)` parses one text block the app rendered (st.code) and returns a list of problems: each
line's result must follow from the operands written on that line, to the last written digit, rounding half up
(as a calculator does). It knows the line shapes the app writes (ui/derivation.py); lines it does not recognise
as arithmetic (vectors of operands, notes) are skipped, and `check_block` reports how many lines it checked so
that a test can insist the checks ran.

The arithmetic here is written independently of the engine: it parses text, not the engine's objects.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, getcontext

getcontext().prec = 50

SEPARATORS = {"es": (",", "."), "en": (".", ",")}  # (decimal, thousands)
NUMBER = r"[+\-−]?\d[\d.,]*"
FACTOR = rf"\(({NUMBER})\)"


def number(text: str, lang: str) -> Decimal:
    decimal_sep, thousands_sep = SEPARATORS[lang]
    cleaned = text.strip().replace("−", "-").replace(thousands_sep, "").replace(decimal_sep, ".")
    return Decimal(cleaned)


def decimals(text: str, lang: str) -> int:
    """How many decimals the written number has."""
    decimal_sep = SEPARATORS[lang][0]
    body = text.strip()
    return len(body.split(decimal_sep)[1]) if decimal_sep in body else 0


def rounds_to(value: Decimal, written: str, lang: str) -> bool:
    """Whether `value` rounded half up to the written number's decimals is the written number."""
    places = decimals(written, lang)
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) == number(written, lang)


def logical_lines(text: str) -> list[str]:
    """The block's lines with wrapped continuations (a line of spaces then "+ …") joined to the line above."""
    lines: list[str] = []
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("+ ") and lines and raw.startswith("  "):
            lines[-1] = lines[-1] + " " + stripped
        else:
            lines.append(raw)
    return lines


def split_relation(line: str) -> tuple[str, str, str] | None:
    """(lhs, relation, rhs) of "lhs = rhs" / "lhs ≈ rhs" (the first relation sign with spaces around it)."""
    match = re.search(r"\s([=≈])\s", line)
    if match is None:
        return None
    return line[: match.start()].strip(), match.group(1), line[match.end() :].strip()


def _strip_note(rhs: str) -> str:
    return rhs.split("←")[0].strip()


class Checker:
    """Walks a block's lines, remembering the products and sums it saw so that the rows below can be checked."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.problems: list[str] = []
        self.checked = 0
        self.factors: list[tuple[Decimal, Decimal]] | None = None  # the last "(a)(b) + (a)(b)" row
        self.products: list[Decimal] | None = None
        self.total: Decimal | None = None
        self.vectors: dict[str, list[Decimal]] = {}
        self.scaled_vectors: list[list[Decimal]] | None = None

    def fail(self, line: str, why: str) -> None:
        self.problems.append(f"{why}: {line.strip()}")

    def n(self, text: str) -> Decimal:
        return number(text, self.lang)

    def check(self, line: str) -> None:
        parts = split_relation(line)
        if parts is None:
            return
        lhs, relation, rhs = parts
        rhs = _strip_note(rhs)
        if (
            self._products_row(lhs, rhs)
            or self._terms_row(lhs, relation, rhs)
            or self._sum_or_round(lhs, relation, rhs)
        ):
            return
        if self._division(lhs, relation, rhs) or self._exp(lhs, relation, rhs) or self._shift(lhs, rhs):
            return
        if self._sigma(lhs, rhs) or self._share(lhs, relation, rhs) or self._vector_rows(lhs, rhs):
            return

    # "(a)(b) + (a)(b) + …"
    def _products_row(self, lhs: str, rhs: str) -> bool:
        pairs = re.fullmatch(rf"{FACTOR}{FACTOR}(?:\s\+\s{FACTOR}{FACTOR})*", rhs)
        if pairs is None:
            return False
        found = re.findall(rf"{FACTOR}{FACTOR}", rhs)
        self.factors = [(self.n(a), self.n(b)) for a, b in found]
        self.products, self.total = None, None
        return True

    # "(p) + (p) + …" under a products row, or the single product of a one-term dot product
    def _terms_row(self, lhs: str, relation: str, rhs: str) -> bool:
        if lhs or self.factors is None or self.products is not None:
            return False
        terms = re.fullmatch(rf"{FACTOR}(?:\s\+\s{FACTOR})*", rhs)
        single = len(self.factors) == 1 and re.fullmatch(NUMBER, rhs)
        if terms is None and not single:
            return False
        written = re.findall(FACTOR, rhs) if terms is not None else [rhs]
        if len(written) != len(self.factors):
            self.fail(rhs, "a term is missing")
            return True
        exact = True
        for (a, b), text in zip(self.factors, written, strict=True):
            self.checked += 1
            if not rounds_to(a * b, text, self.lang):
                self.fail(text, f"({a})({b}) is not written {text}")
            exact &= a * b == self.n(text)
        if exact != (relation == "="):
            self.fail(rhs, f"the relation {relation} says the products are {'' if relation == '=' else 'not '}exact")
        self.products = [self.n(text) for text in written]
        self.total = sum(self.products, Decimal(0))
        if single:
            self.factors = None
        return True

    # "= total" (exact sum of the written products) then "≈ result" (the total rounded)
    def _sum_or_round(self, lhs: str, relation: str, rhs: str) -> bool:
        if lhs or self.total is None or re.fullmatch(NUMBER, rhs) is None:
            return False
        value = self.n(rhs)
        self.checked += 1
        if relation == "=":
            if value != self.total:
                self.fail(rhs, f"the written terms add up to {self.total}, not {value}")
            self.total = value
        else:
            if not rounds_to(self.total, rhs, self.lang):
                self.fail(rhs, f"{self.total} does not round to {rhs}")
            self.factors, self.products, self.total = None, None, None
        return True

    # "score'(…) = n ÷ d ≈ r", "n ÷ T ≈ r" (tempered score)
    def _division(self, lhs: str, relation: str, rhs: str) -> bool:
        full = f"{lhs} {relation} {rhs}"
        match = re.search(rf"({NUMBER}) ÷ ({NUMBER}) ([=≈]) ({NUMBER})\s*$", full)
        if match is None:
            return False
        numerator, divisor, sign, result = match.groups()
        quotient = self.n(numerator) / self.n(divisor)
        self.checked += 1
        if not rounds_to(quotient, result, self.lang):
            self.fail(full, f"{numerator} ÷ {divisor} is not {result}")
        if (sign == "=") != (quotient == self.n(result)):
            self.fail(full, f"the relation {sign} is wrong for an {'in' if sign == '=' else ''}exact quotient")
        return True

    # "x − (m) = r"
    def _shift(self, lhs: str, rhs: str) -> bool:
        match = re.fullmatch(rf"({NUMBER}) − \(({NUMBER})\)", lhs)
        if match is None:
            return False
        self.checked += 1
        if self.n(match.group(1)) - self.n(match.group(2)) != self.n(rhs):
            self.fail(lhs, f"{lhs} is not {rhs}")
        return True

    # "e^(x) ≈ y"
    def _exp(self, lhs: str, relation: str, rhs: str) -> bool:
        match = re.fullmatch(rf"e\^\(({NUMBER})\)", lhs)
        if match is None:
            return False
        value = self.n(match.group(1)).exp()
        self.checked += 1
        if not rounds_to(value, rhs, self.lang):
            self.fail(lhs, f"e^{match.group(1)} = {value:.6f} is not written {rhs}")
        return True

    # "Σ = a + b + c = total"
    def _sigma(self, lhs: str, rhs: str) -> bool:
        if lhs not in ("Σ", "Σ w"):
            return False
        pieces = rhs.rsplit(" = ", 1)
        if len(pieces) != 2:
            self.fail(rhs, "a sum without its total")
            return True
        terms = [self.n(term) for term in pieces[0].split(" + ")]
        self.checked += 1
        if sum(terms, Decimal(0)) != self.n(pieces[1]):
            self.fail(rhs, f"the terms add up to {sum(terms, Decimal(0))}")
        return True

    # "e / total ≈ w"
    def _share(self, lhs: str, relation: str, rhs: str) -> bool:
        match = re.fullmatch(rf"({NUMBER}) / ({NUMBER})", lhs)
        if match is None:
            return False
        self.checked += 1
        quotient = self.n(match.group(1)) / self.n(match.group(2))
        if not rounds_to(quotient, rhs, self.lang):
            self.fail(lhs, f"{lhs} = {quotient:.6f} is not written {rhs}")
        return True

    # the lesson's vector example: "A = [1; 2; 3]", "… = w × [v] + …", "= [p] + …", "= [sum]"
    def _vector_rows(self, lhs: str, rhs: str) -> bool:
        vector = rf"\[({NUMBER}(?:[;,] {NUMBER})*)\]"
        sep = "; " if self.lang == "es" else ", "
        if lhs and re.fullmatch(vector, rhs):
            self.vectors[lhs] = [self.n(v) for v in re.fullmatch(vector, rhs).group(1).split(sep)]
            return True
        scaled = re.findall(rf"({NUMBER}) × {vector}", rhs)
        if scaled:
            self.scaled_vectors = [[self.n(w) * self.n(v) for v in body.split(sep)] for w, body in scaled]
            return True
        if not lhs and self.scaled_vectors is not None:
            written = [[self.n(v) for v in body.split(sep)] for body in re.findall(vector, rhs)]
            self.checked += 1
            if len(written) == len(self.scaled_vectors):
                if written != self.scaled_vectors:
                    self.fail(rhs, "the scaled vectors are not the products")
            elif len(written) == 1:
                total = [sum(column, Decimal(0)) for column in zip(*self.scaled_vectors, strict=True)]
                if written[0] != total:
                    self.fail(rhs, f"the vectors add up to {total}")
                self.scaled_vectors = None
            return True
        return False


def check_block(text: str, lang: str) -> tuple[list[str], int]:
    """(problems, lines checked) for one rendered text block."""
    checker = Checker(lang)
    for line in logical_lines(text):
        if not line.strip():
            checker.factors, checker.products, checker.total = None, None, None
            continue
        checker.check(line)
    return checker.problems, checker.checked
