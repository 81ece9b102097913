"""The Q/K/V builder: edit tokens, x and the weights; every matrix of attention follows at once."""

from ui import shell
from ui.layout import page_header
from ui.scenario_controls import edited_notice_ui
from ui.sections import builder
from ui.sections.walkthrough.handout import handout_ui
from ui.share import share_ui

shell.page("builder")
page_header("builder.title", "builder.lead")
edited_notice_ui()
share_ui(downloads=handout_ui)
builder.editors_ui()
builder.results_ui()
builder.learned_ui()
