"""What the host sees per device: state, lost presses, parse errors, uncertainty."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.cli.devices import format_status
from companion.hardware.simulator import SimDeviceConfig
from companion.i18n import set_language
from companion.widgets.device_status import render_status
from tests.hardware.conftest import wait_for


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language("en")


def test_the_view_follows_a_real_device_through_unplug_and_a_dead_reader(rig, english):
    r = rig([SimDeviceConfig("VIEW", buttons=2)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    st = r.status("VIEW")
    text = render_status([st]).plain
    assert "connected" in text and "0 presses lost" in text and "0 parse errors" in text
    assert f"±{st.uncertainty_ns / 1e6:.2f} ms" in text
    assert "connected" in format_status(st) and "0 lost" in format_status(st)
    r.sim.unplug(r.sim.devices[0])
    wait_for(lambda: r.status("VIEW").state == "disconnected", what="the unplug")
    assert "unplugged" in render_status(r.hub.status()).plain


@pytest.mark.parametrize(
    ("state", "en", "zh"),
    [
        ("connected", "connected", "已连接"),
        ("resyncing", "resyncing", "正在重新同步"),
        ("reconnecting", "reconnecting", "正在重新连接"),
        ("disconnected", "unplugged", "已拔出"),
        ("dead", "dead link", "链路无响应"),
    ],
)
def test_every_state_and_counter_is_shown_in_both_languages(rig, english, state, en, zh):
    r = rig([SimDeviceConfig("LANG", buttons=1)])
    wait_for(lambda: r.hub.status(), what="the device")
    st = replace(
        r.status("LANG"),
        state=state,
        lost=2,
        corrupt=3,
        device_corrupt=1,
        protocol_errors=5,
        clock_outliers=6,
        queue_overflows=7,
        reconnects=8,
        reader_deaths=1,
    )
    text = render_status([st]).plain
    assert en in text and "2 presses lost" in text and "4 parse errors" in text
    assert "5 protocol errors" in text and "6 clock outliers" in text
    assert "7 button changes dropped by the device" in text and "8 reconnects" in text
    line = format_status(st)
    assert "2 lost" in line and "4 parse errors" in line and "8 reconnects (1 after" in line
    set_language("zh")
    text = render_status([st]).plain
    assert zh in text and "丢失 2 次按压" in text and "4 个解析错误" in text
    assert "重新连接 8 次" in text and "设备丢弃了 7 次按钮变化" in text
    assert "其中 1 次因读取出错" in format_status(st)
