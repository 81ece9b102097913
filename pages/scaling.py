"""Why divide by √d_k: random walks, the measured spread of q·k, and what each divisor does to softmax."""

from ui import shell
from ui.layout import page_header
from ui.sections import scaling

shell.page("scaling")
page_header("scaling.title", "scaling.lead")
scaling.sections_ui()
