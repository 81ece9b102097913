"""Making user text safe to show inside markdown: it is displayed literally, never interpreted."""

import re

# Every ASCII punctuation character can be backslash-escaped in markdown (CommonMark), and escaping all of them
# stops every construct that starts with one: emphasis, code, links and <autolinks>, HTML, LaTeX ($),
# Streamlit's :material/icons: and :emoji: shortcodes, headings, lists, tables.
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c]+")


# GitHub's autolinks ("www.x.com", "http://x.com", "a@x.com") are found in the text after escapes are read, so
# escaping cannot stop them: a word joiner (U+2060, invisible, no break) splits the pattern each needs.
WORD_JOINER = "\u2060"
_AUTOLINK_START = re.compile(r"(?i)(www)(?=\.)|(:)(?=//)|(?=@)")


def md_literal(text: object) -> str:
    """`text` to put inside markdown so that it shows exactly as typed: punctuation escaped, line breaks as spaces
    (a line break would start a new paragraph or list item), autolinks split by an invisible word joiner."""
    unlinked = _AUTOLINK_START.sub(lambda m: (m.group(1) or m.group(2) or "") + WORD_JOINER, str(text))
    return _PUNCTUATION.sub(r"\\\1", _LINE_BREAKS.sub(" ", unlinked))
