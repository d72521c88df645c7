"""The phone page's own-seat mark reads like its language: 「Bo（你）」 in Chinese, not the
ASCII 「Bo (你)」 the page's script wrote around the word (seen on the 390x844 screenshot)."""

from __future__ import annotations

from companion.hardware.phone_strings import page_strings


def test_the_own_seat_mark_is_one_translated_piece() -> None:
    assert page_strings("en")["you"] == " (you)"
    zh = page_strings("zh")["you"]
    assert zh == "（你）" and "(" not in zh


def test_the_page_writes_no_brackets_of_its_own() -> None:
    from importlib.resources import files

    page = files("companion.hardware").joinpath("phone_page/index.html").read_text("utf-8")
    assert '" (" + t(' not in page
