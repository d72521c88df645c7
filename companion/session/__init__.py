"""Persistence and orchestration: the SQLite store, the live session, replay, export."""
