"""Load tests on Locust: students that speak Streamlit's websocket protocol, replaying a real browser's messages."""
