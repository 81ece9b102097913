"""Textos en español rioplatense: one module per page (and `common`), each a `STRINGS` dict (see ui/i18n)."""
