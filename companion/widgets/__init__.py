"""Widgets shared by the game screens."""

from companion.widgets import key_order

key_order.install()  # every text field edits in key order (Textual issue #6605)
