"""Device clock -> host monotonic clock, with an honest uncertainty.

Modelled on Klipper's ``klippy/clocksync.py`` and on NTP:

* Each ping/pong round trip gives a sample: the host stamps the ``PING`` just
  before writing it (``sent_ns``) and the ``PONG`` as soon as it is read
  (``recv_ns``); the device's ``t_us`` was read between the two. So the sample
  says: host time of device time ``t_us`` lies in ``[sent_ns, recv_ns]``.
* Like Klipper, samples with a low round-trip time are the trustworthy ones: the
  window keeps every sample, but the fit uses those whose round trip is within
  ``rtt_keep`` of the window's (slowly aging) minimum, and weighs them by
  ``1 / rtt²``.
* Drift (the rate): at first from the two lowest-round-trip samples near the
  window's ends, whose intervals bound it rigorously; once 20 samples span 10 s,
  from a weighted least-squares fit of the midpoints over the whole window
  (minutes), with five standard errors as its bound, whichever bound is tighter.
* The offset is not taken from the midpoints alone (their error is the unknown
  asymmetry of the two directions, up to rtt/2 each): with the fitted rate, every
  recent sample bounds the line from below (``sent``) and above (``recv``); the
  intersection of those intervals (widened by the rate's own error) is the band
  the truth lies in. Its half-width is the uncertainty at the reference point, and
  grows with the rate error when mapping times away from it.
* If the intervals do not intersect (a clock glitch, a device stamping outside its
  round trip), the fit falls back to the midpoints with the minimum half round
  trip as uncertainty, and says so (``consistent = False``).
"""

from __future__ import annotations

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
    samples: int
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
        max_samples: int = 2048,
        rtt_keep: float = 2.0,
        prior_ppm: float = 1000.0,
        min_rate_error_ppm: float = 0.2,
    ) -> None:
        self.window_ns = int(window_s * 1e9)
        self.recent_ns = int(recent_s * 1e9)
        self.samples: deque[SyncSample] = deque(maxlen=max_samples)
        self.rtt_keep = rtt_keep
        self.prior = prior_ppm * 1e-6 * NS_PER_US
        self.min_rate_error = min_rate_error_ppm * 1e-6 * NS_PER_US
        self.estimate: ClockEstimate | None = None
        self.rejected = 0

    def reset(self) -> None:
        self.samples.clear()
        self.estimate = None

    @property
    def last_rtt_ns(self) -> int | None:
        return self.samples[-1].rtt_ns if self.samples else None

    def add(self, sample: SyncSample) -> ClockEstimate | None:
        if sample.rtt_ns <= 0 or (self.samples and sample.device_us <= self.samples[-1].device_us):
            self.rejected += 1  # time ran backwards: not a sample of this boot's clock
            return self.estimate
        self.samples.append(sample)
        newest = sample.recv_ns
        while self.samples and newest - self.samples[0].recv_ns > self.window_ns:
            self.samples.popleft()
        self.estimate = self._fit()
        return self.estimate

    # ------------------------------------------------------------------ the fit

    def _kept(self) -> list[SyncSample]:
        """Low-round-trip samples; the minimum ages (Klipper's RTT_AGE) so a
        lucky old sample cannot veto everything after a change of path."""
        newest = self.samples[-1].recv_ns
        age_allow = 1e-5 / 3600.0  # 10 µs per hour of age, as Klipper
        best = min(s.rtt_ns + (newest - s.recv_ns) * age_allow for s in self.samples)
        limit = best * self.rtt_keep + 50_000  # + 50 µs so sub-ms minima keep company
        return [s for s in self.samples if s.rtt_ns <= limit]

    def _fit(self) -> ClockEstimate:
        kept = self._kept()
        min_rtt = min(s.rtt_ns for s in self.samples)
        weights = [1.0 / float(max(s.rtt_ns, 1000)) ** 2 for s in kept]
        wsum = sum(weights)
        x0 = sum(w * s.device_us for w, s in zip(weights, kept, strict=True)) / wsum
        y0 = sum(w * s.mid_ns for w, s in zip(weights, kept, strict=True)) / wsum
        # A rigorous rate first: the best (lowest round trip) sample of the first and
        # of the last quarter bound the slope by their intervals.
        rate, rate_error = NS_PER_US, self.prior
        q = max(1, len(kept) // 4)
        a = min(kept[:q], key=lambda s: s.rtt_ns)
        b = min(kept[-q:], key=lambda s: s.rtt_ns)
        base_us = b.device_us - a.device_us
        if base_us > 0:
            rate = (b.mid_ns - a.mid_ns) / base_us
            rate_error = (a.rtt_ns + b.rtt_ns) / 2 / base_us
        # Then the weighted least-squares fit, trusted (at 5 sigma) once enough
        # samples over enough time make its statistics meaningful.
        sxx = sum(w * (s.device_us - x0) ** 2 for w, s in zip(weights, kept, strict=True))
        span_us = kept[-1].device_us - kept[0].device_us
        if len(kept) >= 20 and span_us >= 10_000_000 and sxx > 0:
            sxy = sum(
                w * (s.device_us - x0) * (s.mid_ns - y0) for w, s in zip(weights, kept, strict=True)
            )
            ls_rate = sxy / sxx
            resid = sum(
                w * (s.mid_ns - y0 - ls_rate * (s.device_us - x0)) ** 2
                for w, s in zip(weights, kept, strict=True)
            )
            stat = 5.0 * math.sqrt(resid / (len(kept) - 2) / sxx)
            if stat < rate_error:
                rate, rate_error = ls_rate, stat
        rate_error = max(rate_error, self.min_rate_error)
        if rate_error >= self.prior:  # not better than knowing nothing: nominal rate
            rate, rate_error = NS_PER_US, self.prior

        # Offset: intersect the recent samples' intervals around the fitted line.
        newest = self.samples[-1].recv_ns
        recent = [s for s in self.samples if newest - s.recv_ns <= self.recent_ns]
        # Reference: the newest sample. Older samples' bounds are widened by the
        # rate's error times their age, so they tighten the band only while the
        # rate is known well enough; a press (always near "now") then needs no
        # long extrapolation.
        xr = float(self.samples[-1].device_us)
        yr = y0 + rate * (xr - x0)
        lo = -math.inf
        hi = math.inf
        for s in recent:
            line = yr + rate * (s.device_us - xr)
            widen = rate_error * abs(s.device_us - xr)
            lo = max(lo, s.sent_ns - line - widen)
            hi = min(hi, s.recv_ns - line + widen)
        if lo <= hi:
            centre = (lo + hi) / 2
            half = (hi - lo) / 2
            consistent = True
        else:
            centre = 0.0
            half = min_rtt / 2 + (lo - hi)
            consistent = False
        return ClockEstimate(
            ref_device_us=xr,
            ref_host_ns=yr + centre,
            rate=rate,
            half_width_ns=half,
            rate_error=rate_error,
            samples=len(kept),
            min_rtt_ns=min_rtt,
            consistent=consistent,
            span_s=(self.samples[-1].recv_ns - self.samples[0].recv_ns) / 1e9,
        )
