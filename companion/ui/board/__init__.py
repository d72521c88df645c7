"""The table board: a read-only big display of the running session (``companion board``)."""

from companion.ui.board.app import BoardApp, make_board

__all__ = ["BoardApp", "make_board"]
