"""The live class: the lecturer drives, the class follows and votes (issue 28). The thin `*_ui` half; the logic is in
ui/view_models/live.py and the class's shared state behind `ui.live_store.store()` (classroom/api.py).

- `seats`: who this session is (the lecturer's seat or a student's), a refusal said once, leaving; the layer the
  others import.
- `follow`: every page run: the lecturer's link, a student's join, following the lecturer, publishing the lecturer's
  view, the follower's poll and the walkthrough's part fragment.
- `panels`: the sidebar (opening and ending a class, the lecturer's panel and QR code, the students joined, the
  tally's downloads, the student's panel) and the home page's join form.
- `rounds`: the class's question rounds: the lecturer's gate, the reveal, the projector, a student's answer and
  feedback.

Each module is imported from where its names are (`from ui.live import follow`); this package re-exports nothing.
"""
