"""Making user text safe to show inside markdown: it is displayed literally, never interpreted."""

import re

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:])")


def md_literal(text: object) -> str:
    """`text` with every markdown (and HTML-looking) character backslash-escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))
