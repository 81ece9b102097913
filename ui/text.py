"""Making user text safe to show inside markdown: it is displayed literally, never interpreted."""

import re

# Every ASCII punctuation character can be backslash-escaped in markdown (CommonMark), and escaping all of them
# stops every construct that starts with one: emphasis, code, links and autolinks ("www.evil.com"), HTML,
# LaTeX ($), Streamlit's :material/icons: and :emoji: shortcodes, headings, lists, tables.
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c]+")


def md_literal(text: object) -> str:
    """`text` to put inside markdown so that it shows exactly as typed: punctuation escaped, line breaks as spaces
    (a line break would start a new paragraph or list item)."""
    return _PUNCTUATION.sub(r"\\\1", _LINE_BREAKS.sub(" ", str(text)))
