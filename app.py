"""The entry point, `streamlit run app.py`, and the home page. Every page, this one included, starts with
`ui.shell.page`: the sidebar (language, presentation mode, questions, the translated menu of pages/) and the
page's style. The other pages are the files in pages/."""

from ui import shell
from ui.layout import page_header
from ui.live import panels
from ui.sections import home

shell.page("home")
page_header("home.title", "home.lead")
panels.join_form_ui()
home.numbers_ui()
home.problem_ui()
home.search_ui()
home.self_ui()
home.map_ui()
