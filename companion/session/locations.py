"""Where the companion keeps its files (platformdirs), and how to choose another."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "companion"


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def screenshot_dir() -> Path:
    """The user's downloads folder if it exists (``$XDG_DOWNLOAD_DIR`` too), else
    ``<data dir>/screenshots``, created on demand."""
    downloads = Path(platformdirs.user_downloads_dir())
    if downloads.is_dir():
        return downloads
    folder = data_dir() / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def default_db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--db PATH``, else ``$COMPANION_DB``, else ``<user data dir>/companion.sqlite3``."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("COMPANION_DB")
    if env:
        return Path(env).expanduser()
    return data_dir() / "companion.sqlite3"
