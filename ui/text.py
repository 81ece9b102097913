"""Making user text safe to show inside markdown: it is displayed literally, never interpreted."""

import re

# Characters that start markdown, HTML, LaTeX, links, emoji shortcodes or entities anywhere in a line.
# (+, - and . only act at the start of a line, and parameters sit inside sentences.)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#|<>~$&:])")


def md_literal(text: object) -> str:
    """`text` with every markdown (and HTML-looking) character backslash-escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))
