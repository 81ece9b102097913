"""The languages the app speaks: Spanish (rioplatense) first, English second."""

DEFAULT_LANGUAGE = "es"
LANGUAGE_NAMES = {"es": "Español", "en": "English"}
NUMBER_SEPARATORS = {"es": (",", "."), "en": (".", ",")}  # (decimal, thousands): how each writes a number (ui.numbers)
