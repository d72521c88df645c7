"""Audio errors a host can act on, rendered in the current language when shown.

Like :class:`companion.rules.base.RuleError`, the message is an English template
marked with ``N_`` plus keyword parameters; ``str(err)`` translates it at the moment
it is shown, ``err.render(_)`` does so with a given translator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.i18n import _


class AudioFileError(ValueError):
    """A WAV file cannot be used: missing, not a WAV, or a format we cannot play."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params

    def render(self, translate: Callable[[str], str]) -> str:
        return translate(self.template).format(**self.params)

    def __str__(self) -> str:
        return self.render(_)
