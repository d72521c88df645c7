"""The web board's door: no token, no board; the token once, then a cookie."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from companion.ui.board.web import (
    COOKIE,
    BoardServer,
    interface_addresses,
    reachable_addresses,
)


async def make_client(token: str = "s3cret-token") -> TestClient:
    server = BoardServer(
        "true", host="127.0.0.1", port=8765, token=token, announce=lambda url: None
    )
    client = TestClient(TestServer(await server._make_app()))
    await client.start_server()
    return client


async def test_requests_without_the_token_are_refused() -> None:
    client = await make_client()
    try:
        for path in ("/", "/static/js/textual.js", "/ws", "/?token=wrong"):
            response = await client.get(path)
            assert response.status == 403, path
            assert "access token" in await response.text()
    finally:
        await client.close()


async def test_the_token_opens_the_page_and_sets_a_cookie() -> None:
    client = await make_client()
    try:
        response = await client.get("/?token=s3cret-token")
        assert response.status == 200
        page = await response.text()
        host = f"{client.host}:{client.port}"
        assert f'data-session-websocket-url="ws://{host}/ws"' in page
        assert "fonts.googleapis.com" not in page  # a TV offline must not wait for fonts
        assert 'data-font-size="22"' in page
        cookie = response.cookies[COOKIE]
        assert cookie.value == "s3cret-token"
        assert cookie["httponly"] and cookie["samesite"] == "Strict"
        # The page's own requests carry the cookie.
        response = await client.get("/static/js/textual.js")
        assert response.status == 200
        response = await client.get("/?fontsize=40")
        assert 'data-font-size="40"' in await response.text()
    finally:
        await client.close()


async def test_a_websocket_from_another_origin_is_refused() -> None:
    client = await make_client()
    try:
        await client.get("/?token=s3cret-token")
        response = await client.get("/ws", headers={"Origin": "http://evil.example"})
        assert response.status == 403
    finally:
        await client.close()


def test_addresses_to_print() -> None:
    assert reachable_addresses("127.0.0.1") == ["127.0.0.1"]
    assert reachable_addresses("::1") == ["[::1]"]
    wildcard = reachable_addresses("0.0.0.0")
    assert wildcard[-1] == "127.0.0.1"
    assert all(not a.startswith("127.") for a in wildcard[:-1])
    # Every IPv4 interface address of this machine is offered for a TV to type.
    lan = [a for a in interface_addresses() if not a.startswith("127.")]
    assert wildcard[: len(lan)] == lan
    assert "127.0.0.1" in interface_addresses()  # the loopback interface is found
