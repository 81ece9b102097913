"""What is learned: choose a target attention pattern, train W_Q and W_K toward it live, look inside, learn from
it (the stall without dividing, the roles of W_Q and W_K), and send the learned weights to the walkthrough."""

from ui import shell
from ui.layout import page_header
from ui.sections.learning import tabs

shell.page("learning")
page_header("learn.title", "learn.lead")
tabs.sections_ui()
