"""Fixtures of the board tests: a writer process standing in for the host's app."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WRITER = Path(__file__).with_name("writer.py")


class Writer:
    """Drives ``writer.py`` in lockstep: each command returns the writer's report."""

    def __init__(
        self,
        db: Path,
        game: str,
        names: list[str],
        options: dict[str, Any] | None = None,
        session: str | None = None,
    ) -> None:
        args = [
            sys.executable,
            str(WRITER),
            str(db),
            game,
            json.dumps(names),
            json.dumps(options or {}),
        ]
        if session:
            args.append(session)
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.last = self._read()
        self.session: str = self.last["session"]

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"writer exited with {self.proc.wait()}")
        report: dict[str, Any] = json.loads(line)
        return report

    def send(self, command: str | dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        text = command if isinstance(command, str) else json.dumps(command)
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        self.last = self._read()
        return self.last

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=10)


@pytest.fixture
def writers() -> Iterator[list[Writer]]:
    started: list[Writer] = []
    yield started
    for w in started:
        w.close()


@pytest.fixture
def start_writer(writers: list[Writer]):  # type: ignore[no-untyped-def]
    def start(
        db: Path,
        game: str,
        names: list[str],
        options: dict[str, Any] | None = None,
        session: str | None = None,
    ) -> Writer:
        w = Writer(db, game, names, options, session)
        writers.append(w)
        return w

    return start
