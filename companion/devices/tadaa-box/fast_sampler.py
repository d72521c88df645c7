# The sampling loop of core 1, compiled to machine code by MicroPython's viper
# emitter (RP2040 builds have it). Reads all GPIO inputs in one load and the
# 1 MHz timer in another; on any change, stores the raw bits and that time into
# the queue that core 0 drains. No allocation, no locks: one producer, one
# consumer, word-sized stores. A full queue drops the change and counts it
# (qw[2]); the longest gap between two samples is kept in qw[3].
import micropython

_cfg = []  # [gpio_in, timer_rawl, q_t, q_v, q_w, q_r, stop, queue_len - 1]


@micropython.viper
def _loop(pin_mask: int):
    gpio = ptr32(_cfg[0])  # noqa: F821 - viper builtin
    timer = ptr32(_cfg[1])  # noqa: F821
    qt = ptr32(_cfg[2])  # noqa: F821
    qv = ptr32(_cfg[3])  # noqa: F821
    qw = ptr32(_cfg[4])  # noqa: F821
    qr = ptr32(_cfg[5])  # noqa: F821
    halt = ptr32(_cfg[6])  # noqa: F821
    wrap = int(_cfg[7])
    last = gpio[0] & pin_mask
    prev = timer[0]
    w = 0
    while halt[0] == 0:
        v = gpio[0] & pin_mask
        t = timer[0]
        gap = uint(t - prev)  # noqa: F821 - viper builtin
        if gap > uint(qw[3]):  # noqa: F821
            qw[3] = gap
        prev = t
        if v != last:
            nxt = (w + 1) & wrap
            if nxt == qr[0]:
                qw[2] += 1  # full: this change is lost, and counted
            else:
                qt[w] = t
                qv[w] = v
                w = nxt
                qw[0] = w
            last = v
        qw[1] += 1


def make_sampler(gpio_in, timer_rawl, q_t, q_v, q_w, q_r, stop, queue_len):
    _cfg[:] = [gpio_in, timer_rawl, q_t, q_v, q_w, q_r, stop, queue_len - 1]
    return _loop
