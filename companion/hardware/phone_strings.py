"""The phone page's words, in both languages (the page picks; the host's choice is the default).

The page is one HTML file with no external assets; its words are gettext
strings here, served inside the page as ``{"en": {...}, "zh": {...}}``.
"""

from __future__ import annotations

from companion.i18n import N_, catalog

PAGE_STRINGS: dict[str, str] = {
    "title": N_("Tadaa! button"),
    "pick": N_("Which seat is yours?"),
    "pending": N_("Waiting for the host to give you this seat…"),
    "refused": N_("The host kept this seat for another phone."),
    "moved": N_("Your seat moved to another phone."),
    "change": N_("Change seat"),
    "connecting": N_("Connecting to the host…"),
    "offline": N_("No connection: presses are kept and sent when it is back"),
    "syncing": N_("Setting the clock…"),
    "idle": N_("Wait for the performance"),
    "ready": N_("Get ready: the music has not started"),
    "armed": N_("Press when you are done!"),
    "pressed": N_("Pressed"),
    "press": N_("TADAA!"),
    "ended": N_("Result"),
    "sent": N_("saved by the host"),
    "queued": N_("waiting to be sent"),
    "lost": N_("lost: the host could not place it"),
    "lost_n": N_("presses lost"),
    "gap": N_("gap"),
    "close": N_("too close to call"),
    # TRANSLATORS: after the player's own name in the list of seats; zh: full-width
    "you": N_(" (you)"),
    "ended_session": N_("The host ended this session."),
    "bad_link": N_("This link is not the current session's: scan the host's QR code again."),
}


def page_strings(lang: str) -> dict[str, str]:
    """The page's words in ``lang`` (``en`` or ``zh``)."""
    translate = catalog(lang).gettext
    return {key: translate(text) for key, text in PAGE_STRINGS.items()}
