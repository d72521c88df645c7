"""The Textual app: thin screens that call the session layer and render its state."""
