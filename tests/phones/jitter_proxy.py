"""A TCP proxy that holds every chunk for a random 2–8 ms, in order: Wi-Fi in a test.

``tc netem`` needs the kernel's ``sch_netem``, which these machines lack; this
proxy sits between the browser and the phones' server instead. Each direction
of each connection has a reader thread and a sender thread: a chunk read at
``t`` leaves at ``max(t + delay, previous departure)`` (order is kept, as on a
link; delays only grow). Threads with ``time.sleep`` keep the delays to within
~0.1 ms of the drawn ones (an asyncio timer rounds up to whole milliseconds).
``cut()`` drops every connection and refuses new ones (the Wi-Fi is gone),
``restore()`` lets them in again.
"""

from __future__ import annotations

import contextlib
import queue
import random
import socket
import threading
import time


class JitterProxy:
    def __init__(
        self,
        target_port: int,
        *,
        low_ms: float = 2.0,
        high_ms: float = 8.0,
        seed: int = 1,
        target_host: str = "127.0.0.1",
    ) -> None:
        self.target = (target_host, target_port)
        self.low = low_ms / 1000
        self.high = high_ms / 1000
        self.rng = random.Random(seed)
        self._rng_lock = threading.Lock()
        self.down = False
        self.chunks = 0
        self.delays: list[float] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False

    async def start(self) -> JitterProxy:  # awaitable, so async tests read the same
        return self.start_sync()

    def start_sync(self) -> JitterProxy:
        threading.Thread(target=self._accept, name="proxy-accept", daemon=True).start()
        return self

    async def close(self) -> None:
        self.close_sync()

    def close_sync(self) -> None:
        self._closed = True
        self.cut()
        with contextlib.suppress(OSError):
            self._listener.close()

    def cut(self) -> None:
        """The Wi-Fi drops: every connection ends, new ones are refused."""
        self.down = True
        with self._lock:
            for sock in list(self._sockets):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    sock.close()
            self._sockets.clear()

    def restore(self) -> None:
        self.down = False

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._sockets.update((client, upstream))
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    def _delay(self) -> float:
        with self._rng_lock:
            d = self.rng.uniform(self.low, self.high)
            self.delays.append(d)
            return d

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        held: queue.Queue[tuple[float, bytes]] = queue.Queue()

        def send() -> None:
            while True:
                due, data = held.get()
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                if not data:
                    break
                try:
                    dst.sendall(data)
                except OSError:
                    break
            with contextlib.suppress(OSError):
                dst.shutdown(socket.SHUT_WR)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        last = 0.0
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            self.chunks += 1
            last = max(time.monotonic() + self._delay(), last)
            held.put((last, data))
            if not data:
                break
        sender.join(5)
        with self._lock:
            self._sockets.discard(src)
            self._sockets.discard(dst)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.close()
