"""Device clock -> host monotonic clock, with an honest uncertainty.

Modelled on Klipper's ``klippy/clocksync.py`` and on NTP, but every bound is
rigorous (no statistics): a press's interval holds the truth as long as each
sample's device stamp was taken between its ping and its pong, and the device
clock runs at a constant rate over the window.

* Each ping/pong round trip gives a sample: the host stamps the ``PING`` just
  before writing it (``sent_ns``) and the ``PONG`` as soon as it is read
  (``recv_ns``); the device's ``t_us`` was read between the two. So the sample
  says: host time of device time ``t_us`` lies in ``[sent_ns, recv_ns]``.
* Rate (drift), from all usable samples: every pair of samples ``i`` before
  ``j`` bounds the rate from above by ``(recv_j - sent_i) / (t_j - t_i)`` and
  from below by ``(sent_j - recv_i) / (t_j - t_i)``; together these are exactly
  the rates some line through every interval can have. The window (10 min)
  keeps the lowest-round-trip sample per ``anchor_s`` of device time; the
  ``pairs`` best anchors of its first and of its last quarter (those that bound
  hardest) are paired, so the cost per sample is bounded. The rate is the middle
  of the bounds, its error half their width (at least ``min_rate_error_ppm``).
* Offset: with that rate, every recent sample (the ``band_samples`` newest and
  the anchors of the last ``recent_s``) bounds the line from below
  (``sent``) and above (``recv``), widened by the rate's error times its age;
  the intersection is the band the truth lies in. Its half-width is the
  uncertainty at the reference point (the newest sample) and grows with the rate
  error away from it.
* The physical limit: the band cannot be narrower than the best one-way delays
  of the recent samples (half the best round trip, if both directions are as
  fast), plus the device's tick (1 µs) and half its sampling period (the caller
  adds that).
* Outliers: a sample whose interval does not meet the current model's interval
  for its device time contradicts the model by more than its own bound (a
  corrupted or forged ``PONG``, ``t_us = 2**62``) and is not used (``outliers``).
  If ``outlier_run`` samples in a row agree with each other and not with the
  model, the device's clock really changed: the model restarts from them
  (``restarts``) and says so.
* If the intervals do not intersect anyway, the fit falls back to the midpoints
  with the minimum half round trip as uncertainty, and says so
  (``consistent = False``).
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from dataclasses import dataclass

NS_PER_US = 1000.0


@dataclass(frozen=True)
class SyncSample:
    sent_ns: int
    recv_ns: int
    device_us: int

    @property
    def rtt_ns(self) -> int:
        return self.recv_ns - self.sent_ns

    @property
    def mid_ns(self) -> float:
        return (self.sent_ns + self.recv_ns) / 2


@dataclass(frozen=True)
class ClockEstimate:
    """``host_ns = ref_host_ns + rate * (device_us - ref_device_us)``."""

    ref_device_us: float
    ref_host_ns: float
    rate: float  # host ns per device µs (1000 for a perfect clock)
    half_width_ns: float  # uncertainty at the reference point
    rate_error: float  # bound on the rate's error, host ns per device µs
    samples: int  # samples that bounded the offset band
    min_rtt_ns: int
    consistent: bool
    span_s: float

    @property
    def drift_ppm(self) -> float:
        """How much faster the device clock runs than the host's (parts per million)."""
        return (NS_PER_US / self.rate - 1.0) * 1e6

    def to_host(self, device_us: int, extra_ns: float = 0.0) -> tuple[int, int]:
        """Host-monotonic ns of ``device_us`` and the half-width of its interval."""
        dx = device_us - self.ref_device_us
        host = self.ref_host_ns + self.rate * dx
        unc = self.half_width_ns + self.rate_error * abs(dx) + NS_PER_US + extra_ns
        return round(host), math.ceil(unc)

    def to_device(self, host_ns: int) -> float:
        return self.ref_device_us + (host_ns - self.ref_host_ns) / self.rate


def rate_bounds(points: list[SyncSample]) -> tuple[float, float]:
    """The rates (host ns per device µs) of all lines through every interval of
    ``points`` (sorted by device time), from their pairs: ``(low, high)``;
    ``low > high`` if no line fits them all."""
    lo, hi = -math.inf, math.inf
    for k, a in enumerate(points):
        for b in points[k + 1 :]:
            dx = b.device_us - a.device_us
            if dx <= 0:
                continue
            hi = min(hi, (b.recv_ns - a.sent_ns) / dx)
            lo = max(lo, (b.sent_ns - a.recv_ns) / dx)
    return lo, hi


class ClockSync:
    """The samples of one device boot, and the current estimate.

    ``window_s``: how much history feeds the rate; ``recent_s``: which samples
    bound the offset; ``prior_ppm``: the largest drift assumed before two samples
    span enough time to measure it (crystal boards: ±50 ppm; resonators worse).
    """

    def __init__(
        self,
        window_s: float = 600.0,
        recent_s: float = 20.0,
        max_samples: int = 512,
        anchor_s: float = 1.0,
        pairs: int = 8,
        prior_ppm: float = 1000.0,
        min_rate_error_ppm: float = 0.2,
        outlier_run: int = 8,
        band_samples: int = 64,
    ) -> None:
        self.band_samples = band_samples
        self.window_ns = int(window_s * 1e9)
        self.recent_ns = int(recent_s * 1e9)
        self.samples: deque[SyncSample] = deque(maxlen=max_samples)
        self.anchors: deque[SyncSample] = deque()  # best sample per anchor_us, in order
        self.anchor_us = int(anchor_s * 1e6)
        self.pairs = pairs
        self.prior = prior_ppm * 1e-6 * NS_PER_US
        self.min_rate_error = min_rate_error_ppm * 1e-6 * NS_PER_US
        self.outlier_run = outlier_run
        self.estimate: ClockEstimate | None = None
        self.rejected = 0  # impossible samples (no round trip)
        self.outliers = 0  # samples contradicting the model
        self.restarts = 0  # the model restarted from a run of agreeing outliers
        self.steps = 0  # work done (samples visited), for the hub's bound
        self._suspects: list[SyncSample] = []
        self._anchors_version = 0
        self._rate_cache: tuple[int, tuple[float, float, bool]] | None = None

    def reset(self) -> None:
        self.samples.clear()
        self.anchors.clear()
        self._suspects.clear()
        self._anchors_version += 1
        self.estimate = None

    @property
    def last_rtt_ns(self) -> int | None:
        return self.samples[-1].rtt_ns if self.samples else None

    # ------------------------------------------------------------------ samples

    def contradicts(self, sample: SyncSample) -> bool:
        """The sample's interval misses the model's interval for its device time."""
        est = self.estimate
        if self.samples and sample.device_us <= self.samples[-1].device_us:
            return True  # time ran backwards
        if est is None:
            return False
        host, unc = est.to_host(sample.device_us)
        return host + unc < sample.sent_ns or host - unc > sample.recv_ns

    def add(self, sample: SyncSample) -> ClockEstimate | None:
        if sample.rtt_ns <= 0:
            self.rejected += 1
            return self.estimate
        self.steps += 1
        if self.contradicts(sample):
            self.outliers += 1
            self._suspects.append(sample)
            del self._suspects[: -self.outlier_run]
            if len(self._suspects) >= self.outlier_run and self._agree(self._suspects):
                # Not one bad line: the device's clock changed. Start again from them.
                suspects = list(self._suspects)
                self.reset()
                self.restarts += 1
                for s in suspects:
                    self._take(s)
                self.estimate = self._fit()
            return self.estimate
        self._suspects.clear()
        self._take(sample)
        self.estimate = self._fit()
        return self.estimate

    def _agree(self, points: list[SyncSample]) -> bool:
        if any(b.device_us <= a.device_us for a, b in itertools.pairwise(points)):
            return False
        lo, hi = rate_bounds(points)
        return max(lo, NS_PER_US - self.prior) <= min(hi, NS_PER_US + self.prior)

    def _take(self, sample: SyncSample) -> None:
        self.samples.append(sample)
        newest = sample.recv_ns
        while self.samples and newest - self.samples[0].recv_ns > self.recent_ns:
            self.samples.popleft()
        anchors = self.anchors
        bucket = sample.device_us // self.anchor_us
        if anchors and anchors[-1].device_us // self.anchor_us == bucket:
            if sample.rtt_ns < anchors[-1].rtt_ns:
                anchors[-1] = sample
                self._anchors_version += 1
        else:
            anchors.append(sample)
            self._anchors_version += 1
        while anchors and newest - anchors[0].recv_ns > self.window_ns:
            anchors.popleft()
            self._anchors_version += 1

    # ------------------------------------------------------------------ the fit

    def _rate(self) -> tuple[float, float, bool]:
        """(rate, its error bound, consistent) from the anchors' pairs (recomputed
        only when the anchors changed: a new second, a better sample, one aged out)."""
        cached = self._rate_cache
        if cached is not None and cached[0] == self._anchors_version:
            return cached[1]
        result = self._rate_from(list(self.anchors))
        self._rate_cache = (self._anchors_version, result)
        return result

    def _rate_from(self, anchors: list[SyncSample]) -> tuple[float, float, bool]:
        self.steps += len(anchors)
        if len(anchors) > 2 * self.pairs:
            x0 = anchors[0].device_us
            span = anchors[-1].device_us - x0
            early = [a for a in anchors if a.device_us - x0 <= span / 4]
            late = [a for a in anchors if a.device_us - x0 >= span * 3 / 4]
            pick = sorted(early, key=lambda s: s.rtt_ns)[: self.pairs]
            pick += sorted(late, key=lambda s: s.rtt_ns)[: self.pairs]
            anchors = sorted(set(pick), key=lambda s: s.device_us)
        self.steps += len(anchors) ** 2 // 2
        lo, hi = rate_bounds(anchors)
        lo = max(lo, NS_PER_US - self.prior)
        hi = min(hi, NS_PER_US + self.prior)
        if lo > hi:
            return NS_PER_US, self.prior, False
        return (lo + hi) / 2, max((hi - lo) / 2, self.min_rate_error), True

    def _fit(self) -> ClockEstimate:
        # The band: the newest samples, and the best of each second of the recent
        # window (older samples only tighten it through a low round trip).
        newest = self.samples[-1]
        tail = list(itertools.islice(reversed(self.samples), self.band_samples))
        oldest_tail = tail[-1].recv_ns
        since = newest.recv_ns - self.recent_ns
        samples = tail + [a for a in self.anchors if since <= a.recv_ns < oldest_tail]
        self.steps += len(samples)
        min_rtt = min(s.rtt_ns for s in samples)
        rate, rate_error, rate_ok = self._rate()
        # Offset: intersect the recent samples' intervals around the line of that
        # rate through the newest sample's device time (the reference: presses
        # come "now", so they need no long extrapolation). Older samples' bounds
        # widen by the rate's error times their age.
        xr = float(newest.device_us)
        yr = newest.mid_ns
        lo = -math.inf
        hi = math.inf
        for s in samples:
            dx = s.device_us - xr
            line = yr + rate * dx
            widen = rate_error * abs(dx)
            lo = max(lo, s.sent_ns - line - widen)
            hi = min(hi, s.recv_ns - line + widen)
        if lo <= hi and rate_ok:
            centre = (lo + hi) / 2
            half = (hi - lo) / 2
            consistent = True
        else:
            centre = 0.0
            half = min_rtt / 2 + max(0.0, lo - hi)
            consistent = False
        return ClockEstimate(
            ref_device_us=xr,
            ref_host_ns=yr + centre,
            rate=rate,
            half_width_ns=half,
            rate_error=rate_error,
            samples=len(self.samples),
            min_rtt_ns=min_rtt,
            consistent=consistent,
            span_s=(newest.recv_ns - self.anchors[0].recv_ns) / 1e9,
        )
