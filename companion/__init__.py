"""Tabletop Companion: a terminal app for the host of a board-game table."""

__version__ = "0.1.0"
