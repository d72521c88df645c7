"""English counts on the device and phone lines agree with their number: "1 press lost",
"1 button", not "1 presses lost" / "1 buttons" (issue 22, English plurals)."""

from __future__ import annotations

from companion.hardware.link import DeviceStatus
from companion.hardware.phones import PhoneStatus
from companion.i18n import set_language
from companion.widgets.device_status import render_status
from companion.widgets.phones import render_phones


def _device(n: int) -> DeviceStatus:
    return DeviceStatus(
        serial="TB-7", port="/dev/ttyACM0", state="connected", boot="b", buttons=n,
        firmware="fw", rtt_ns=1_000_000, min_rtt_ns=1_000_000, drift_ppm=None,
        uncertainty_ns=1_000_000, sync_samples=5, presses=n, duplicates=0, resends=0,
        lost=n, corrupt=n, device_corrupt=0, predating=0, sample_us=100, consistent=True,
        protocol_errors=n, clock_outliers=n, reconnects=n, queue_overflows=n,
    )  # fmt: skip


def _phone(n: int) -> PhoneStatus:
    return PhoneStatus(
        phone="abcd1234", seat="p1", state="connected", uncertainty_ns=1_000_000,
        rtt_ns=1_000_000, drift_ppm=None, samples=5, presses=n, duplicates=0, lost=n,
        boots=1 if n == 1 else n, outliers=n, quiet_s=0.0,
    )  # fmt: skip


def test_one_of_each_is_singular_and_more_are_plural() -> None:
    set_language("en")
    one = render_status([_device(1)]).plain
    for words in ("1 button", "1 press lost", "1 parse error", "1 protocol error",
                  "1 clock outlier", "1 reconnect", "1 button change dropped"):  # fmt: skip
        assert words + "s" not in one and words in one, (words, one)
    two = render_status([_device(2)]).plain
    for words in ("2 buttons", "2 presses lost", "2 parse errors", "2 reconnects"):
        assert words in two, (words, two)
    phone = render_phones([_phone(1)], {"p1": "Ann"}).plain
    for words in ("1 press ", "1 press lost", "1 clock outlier"):
        assert words in phone, (words, phone)
    for wrong in ("1 presses", "1 clock outliers"):
        assert wrong not in phone, (wrong, phone)
    assert "3 page loads" in render_phones([_phone(3)], {"p1": "Ann"}).plain


def test_a_chinese_phone_line_has_no_ascii_brackets() -> None:
    """「Ann (abcd) 已连接」 mixed ASCII brackets into Chinese (the tour at 80x24)."""
    set_language("zh")
    try:
        line = render_phones([_phone(2)], {"p1": "安"}).plain
    finally:
        set_language("en")
    assert "（abcd）" in line and "(" not in line, line
