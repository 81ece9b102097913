"""Placeholder while the page is built."""
