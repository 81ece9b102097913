"""The sections of each page: one module per page, called by the page file in the order of its lesson."""
