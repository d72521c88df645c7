// Tadaa button firmware for Arduino boards: ATmega328P (Uno, Nano) and
// ATmega32U4 (Leonardo, Pro Micro, Micro). Speaks the wire protocol of
// devices/PROTOCOL.md, line for line the same as the RP2040 box
// (companion/hardware/tadaa_logic.py is the reference this file follows).
//
// * Time: micros() (4 us steps at 16 MHz), widened to 64 bits by the main loop.
// * Presses: each button pin's interrupt (pin change, or INTn) stamps micros()
//   first, reads every button pin at once and queues the change (a few
//   microseconds); the loop debounces. Presses seen in one interrupt are a tie
//   (same t_us, flag 1).
// * Reliability: every press stays in a ring buffer (128 events) until the host
//   acknowledges it; resent after 250 ms without ACK (backing off to 2 s) and on
//   RESEND. A boot id (new at every start) and the board's serial number (drawn
//   once, kept in EEPROM) let the host count every press exactly once.
// * Output never blocks on a resend: queued events go out as the serial buffer
//   has room; the interrupts keep stamping presses meanwhile.
//
// Build: `make` in this folder (Debian's gcc-avr, avr-libc, arduino-core-avr),
// or open this folder in the Arduino IDE. Pins: config.h.

#include <Arduino.h>
#include <avr/boot.h>
#include <avr/eeprom.h>
#include <avr/sleep.h>  // the 328P idles between interrupts
#include <avr/wdt.h>
#include <stdlib.h>
#include <string.h>
#include <util/atomic.h>

#include "config.h"

#define FIRMWARE_VERSION "1.0.0-avr"
#define PROTOCOL_VERSION 1
#define MAX_LINE 120
#define RING 128              // unacknowledged events kept (power of two)
#define CHANGE_QUEUE 32       // button changes, interrupt -> loop (power of two)
#define HEARTBEAT_US 1000000UL
#define RESEND_MS 250
#define RESEND_MAX_MS 2000
#define RESEND_BATCH 8
// The interrupt's stamp is late by its latency (a few us; up to ~15 us when
// another interrupt - serial, timer, a press just before - runs first) and
// micros() counts in 4 us steps: 16 us is reported as the sampling period.
// A pin without an interrupt is sampled by the loop: its period instead.
#define IRQ_SAMPLE_US 16

#define FLAG_TIE 0x01
#define FLAG_RESENT 0x02
#define FLAG_DISARMED 0x04
#define FLAG_OVERFLOW 0x08

static const uint8_t BUTTON_PINS[] = TADAA_BUTTON_PINS;
static const uint8_t N_BUTTONS = sizeof(BUTTON_PINS);
static const uint8_t LED_PINS[] = TADAA_LED_PINS;
static const uint8_t N_LEDS = sizeof(LED_PINS);
static_assert(N_BUTTONS >= 1 && N_BUTTONS <= 8, "1 to 8 buttons");
static_assert(N_LEDS == 0 || N_LEDS == N_BUTTONS, "one LED per button, or none");

// --------------------------------------------------------------------------- buttons

// Each button: which input register (index into in_regs) and which bit.
static volatile uint8_t *in_regs[N_BUTTONS];
static uint8_t n_regs;
static uint8_t button_reg[N_BUTTONS];
static uint8_t button_bit[N_BUTTONS];
static bool any_polled;

// Interrupt -> loop: every change of the pressed mask with its raw micros().
static uint8_t isr_mask;  // the mask at the last sample (the interrupts' own)
static volatile uint32_t q_t[CHANGE_QUEUE];
static volatile uint8_t q_mask[CHANGE_QUEUE];
static volatile uint8_t q_w, q_r;
static volatile uint8_t q_folded;  // changes folded into the newest entry (queue full)

// Debounce state, raw 32-bit micros() (differences taken wrap-safe); the loop's.
static uint8_t deb_mask;  // the mask the debounce last saw
static uint32_t released_at[N_BUTTONS];
static uint32_t lockout_until[N_BUTTONS];
static uint16_t bounce_rejected;

extern volatile unsigned long timer0_overflow_count;  // the core's micros() counter (wiring.c)

// micros() with interrupts already off, inlined: the first thing an interrupt does.
static inline __attribute__((always_inline)) uint32_t micros_irq() {
  uint32_t m = timer0_overflow_count;
  uint8_t t = TCNT0;
  if ((TIFR0 & _BV(TOV0)) && t < 255) m++;
  return ((m << 8) + t) * (64 / clockCyclesPerMicrosecond());
}

// Every button pin at once: each input register read once, pressed = bit set.
static inline __attribute__((always_inline)) uint8_t read_mask() {
  uint8_t level[N_BUTTONS];
  for (uint8_t r = 0; r < n_regs; r++) level[r] = *in_regs[r];
  uint8_t m = 0, bit = 1;
  for (uint8_t i = 0; i < N_BUTTONS; i++, bit <<= 1) {
    bool high = (level[button_reg[i]] & button_bit[i]) != 0;
    if (high != (TADAA_ACTIVE_LOW != 0)) m |= bit;
  }
  return m;
}

// One sample of every button, with interrupts off: from the interrupts (and from
// the loop when some pin has no interrupt). As short as it can be - stamp, read,
// queue - so an edge on another port waits microseconds for its own interrupt.
static inline __attribute__((always_inline)) void sample_now() {
  uint32_t t = micros_irq();
  uint8_t m = read_mask();
  if (m == isr_mask) return;
  isr_mask = m;
  uint8_t w = q_w;
  if ((uint8_t)(w - q_r) >= CHANGE_QUEUE) {
    q_folded++;  // the loop is behind (a long write): keep the newest state, late
    q_mask[(uint8_t)(w - 1) & (CHANGE_QUEUE - 1)] = m;
    return;
  }
  q_t[w & (CHANGE_QUEUE - 1)] = t;
  q_mask[w & (CHANGE_QUEUE - 1)] = m;
  q_w = w + 1;
}

// The loop's debounce of one change: the same rules as tadaa_logic.Debouncer. A
// press counts at the first edge of a button released for at least the debounce
// time and out of its previous lock-out; returns the new presses.
static uint8_t debounce(uint32_t t, uint8_t m) {
  uint8_t changed = m ^ deb_mask;
  uint8_t presses = 0, bit = 1;
  for (uint8_t i = 0; i < N_BUTTONS; i++, bit <<= 1) {
    if (!(changed & bit)) continue;
    if (m & bit) {
      if ((int32_t)(t - released_at[i]) >= (int32_t)TADAA_DEBOUNCE_US &&
          (int32_t)(t - lockout_until[i]) >= 0) {
        presses |= bit;
        lockout_until[i] = t + TADAA_DEBOUNCE_US;
      } else {
        bounce_rejected++;
      }
    } else {
      released_at[i] = t;
    }
  }
  deb_mask = m;
  return presses;
}

static void sample_buttons() { sample_now(); }  // for attachInterrupt

#if defined(PCINT0_vect)
ISR(PCINT0_vect) { sample_now(); }
#endif
#if defined(PCINT1_vect)
ISR(PCINT1_vect) { sample_now(); }
#endif
#if defined(PCINT2_vect)
ISR(PCINT2_vect) { sample_now(); }
#endif

static void setup_buttons(uint32_t now) {
  for (uint8_t i = 0; i < N_BUTTONS; i++) {
    uint8_t pin = BUTTON_PINS[i];
    pinMode(pin, TADAA_ACTIVE_LOW ? INPUT_PULLUP : INPUT);
    volatile uint8_t *reg = portInputRegister(digitalPinToPort(pin));
    uint8_t r = 0;
    while (r < n_regs && in_regs[r] != reg) r++;
    if (r == n_regs) in_regs[n_regs++] = reg;
    button_reg[i] = r;
    button_bit[i] = digitalPinToBitMask(pin);
    released_at[i] = now - TADAA_DEBOUNCE_US;
    lockout_until[i] = now;
  }
  delay(5);  // pull-ups settle
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {  // held at boot: pressed, counts after a release
    deb_mask = isr_mask = read_mask();
  }
  for (uint8_t i = 0; i < N_BUTTONS; i++) {
    uint8_t pin = BUTTON_PINS[i];
    if (digitalPinToPCICR(pin)) {
      *digitalPinToPCMSK(pin) |= _BV(digitalPinToPCMSKbit(pin));
      *digitalPinToPCICR(pin) |= _BV(digitalPinToPCICRbit(pin));
    } else if (digitalPinToInterrupt(pin) != NOT_AN_INTERRUPT) {
      attachInterrupt(digitalPinToInterrupt(pin), sample_buttons, CHANGE);
    } else {
      any_polled = true;
    }
  }
}

// Keeps the wrap-safe differences valid when a button rests for more than half
// of micros()'s 71-minute wrap: old instants are pulled forward (still far
// older than the debounce time).
static void age_debounce(uint32_t now) {
  const uint32_t old = 0x40000000UL;
  for (uint8_t i = 0; i < N_BUTTONS; i++) {
    if (now - released_at[i] > old && !(deb_mask & (1 << i))) released_at[i] = now - old;
    if ((int32_t)(now - lockout_until[i]) > (int32_t)old) lockout_until[i] = now - old;
  }
}

// --------------------------------------------------------------------------- time

static uint32_t clk_last;  // last raw micros() seen by extend()
static uint64_t clk_total;

static uint64_t clock_extend(uint32_t raw) {
  clk_total += (uint32_t)(raw - clk_last);
  clk_last = raw;
  return clk_total;
}

// The 64-bit value of a raw stamp taken shortly before or after the last extend().
static uint64_t clock_near(uint32_t raw) {
  int32_t delta = (int32_t)(raw - clk_last);
  return clk_total + (int64_t)delta;
}

static uint64_t now_us() { return clock_extend(micros()); }

// --------------------------------------------------------------------------- output

static char out[MAX_LINE + 8];
static uint8_t out_len;

static void put(const char *s) {
  while (*s && out_len < MAX_LINE) out[out_len++] = *s++;
}
static void put_P(const char *s) {  // from flash
  char c;
  while ((c = pgm_read_byte(s++)) && out_len < MAX_LINE) out[out_len++] = c;
}
#define PUT(lit) put_P(PSTR(lit))

static void put_u32(uint32_t v) {
  char buf[11];
  put(ultoa(v, buf, 10));
}

// Decimal of a 64-bit number without 64-bit division (slow and large on AVR):
// four 16-bit limbs divided by 10000, 32-bit arithmetic only.
static void put_u64(uint64_t v) {
  if (!(v >> 32)) {
    put_u32((uint32_t)v);
    return;
  }
  uint16_t limb[4] = {(uint16_t)(v >> 48), (uint16_t)(v >> 32), (uint16_t)(v >> 16), (uint16_t)v};
  uint16_t chunks[5];
  uint8_t n = 0;
  bool more = true;
  while (more) {
    uint32_t rem = 0;
    more = false;
    for (uint8_t i = 0; i < 4; i++) {
      uint32_t cur = (rem << 16) | limb[i];
      limb[i] = (uint16_t)(cur / 10000);
      rem = cur % 10000;
      if (limb[i]) more = true;
    }
    chunks[n++] = (uint16_t)rem;
  }
  char buf[6];
  put(utoa(chunks[--n], buf, 10));
  while (n) {
    uint16_t c = chunks[--n];
    char d[5];
    for (int8_t k = 3; k >= 0; k--) {
      d[k] = (char)('0' + c % 10);
      c /= 10;
    }
    d[4] = 0;
    put(d);
  }
}

static void put_hex(uint32_t v, uint8_t digits) {
  static const char HEX_DIGITS[] PROGMEM = "0123456789ABCDEF";
  char buf[9];
  for (int8_t k = digits - 1; k >= 0; k--) {
    buf[k] = (char)pgm_read_byte(&HEX_DIGITS[v & 0xF]);
    v >>= 4;
  }
  buf[digits] = 0;
  put(buf);
}

// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF ("123456789" -> 0x29B1).
static uint16_t crc16(const char *data, uint8_t n) {
  uint16_t crc = 0xFFFF;
  while (n--) {
    crc ^= (uint16_t)((uint8_t)*data++) << 8;
    for (uint8_t k = 0; k < 8; k++) crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
  }
  return crc;
}

static void begin_line() { out_len = 0; }

// Frames the line in ``out`` (BODY*CRC4\n) and writes it.
static void send_line() {
  uint16_t crc = crc16(out, out_len);
  out[out_len++] = '*';
  put_hex(crc, 4);
  out[out_len++] = '\n';
  Serial.write((const uint8_t *)out, out_len);
}

// --------------------------------------------------------------------------- identity

static char boot_id[9];
static char serial_no[17];

#define EE_MAGIC ((uint32_t *)0)
#define EE_SERIAL ((uint8_t *)4)
#define EE_BOOTS ((uint32_t *)12)
#define MAGIC 0x31414454UL  // "TDA1"

static volatile uint8_t wdt_ticks;
static volatile uint32_t wdt_pool;
ISR(WDT_vect) {
  // Timer 1 (CPU clock) read at each tick of the watchdog's own RC oscillator:
  // the low bits jitter between two independent clocks.
  wdt_pool = (wdt_pool << 3 | wdt_pool >> 29) ^ TCNT1L;
  wdt_ticks++;
}

static uint32_t mix32(uint32_t h) {  // murmur3's finaliser
  h ^= h >> 16;
  h *= 0x85EBCA6BUL;
  h ^= h >> 13;
  h *= 0xC2B2AE35UL;
  h ^= h >> 16;
  return h;
}

// Entropy for the serial number, once per board: watchdog jitter (about 0.5 s)
// mixed with the chip's signature row (lot, wafer, position on many chips).
static uint32_t entropy32(uint32_t salt) {
  uint8_t tccr1b = TCCR1B;
  TCCR1B = _BV(CS10);  // timer 1 at the CPU clock
  wdt_ticks = 0;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    wdt_reset();
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = _BV(WDIE);  // interrupt only, 16 ms
  }
  uint32_t start = millis();
  while (wdt_ticks < 32 && millis() - start < 1000) {
  }
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    wdt_reset();
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = 0;
  }
  TCCR1B = tccr1b;
  uint32_t h = salt ^ wdt_pool ^ micros();
  for (uint8_t a = 0x0E; a <= 0x17; a++) h = mix32(h ^ boot_signature_byte_get(a));
  return h;
}

static void setup_identity() {
  uint8_t id[8];
  if (eeprom_read_dword(EE_MAGIC) != MAGIC) {
    uint32_t a = entropy32(0x5EED);
    uint32_t b = entropy32(a);
    for (uint8_t i = 0; i < 4; i++) {
      id[i] = (uint8_t)(a >> (8 * i));
      id[4 + i] = (uint8_t)(b >> (8 * i));
    }
    eeprom_update_block(id, EE_SERIAL, 8);
    eeprom_update_dword(EE_BOOTS, 0);
    eeprom_update_dword(EE_MAGIC, MAGIC);
  }
  eeprom_read_block(id, EE_SERIAL, 8);
  uint32_t boots = eeprom_read_dword(EE_BOOTS) + 1;
  eeprom_update_dword(EE_BOOTS, boots);
  uint32_t h = 0;
  for (uint8_t i = 0; i < 8; i++) {
    serial_no[2 * i] = "0123456789ABCDEF"[id[i] >> 4];
    serial_no[2 * i + 1] = "0123456789ABCDEF"[id[i] & 0xF];
    h = mix32(h ^ id[i]);
  }
  serial_no[16] = 0;
  // A new id at every start: the boot counter makes it differ from every
  // earlier boot of this board, the serial from every other board.
  uint32_t boot = mix32(h ^ mix32(boots));
  for (int8_t k = 7; k >= 0; k--) {
    boot_id[k] = "0123456789ABCDEF"[boot & 0xF];
    boot >>= 4;
  }
  boot_id[8] = 0;
}

// --------------------------------------------------------------------------- ring

// Event i (oldest first) is at index (ring_head + i) % RING; its sequence
// number is ring_first + i. info: bits 0-3 flags, 4-6 button - 1, 7 sent once.
static uint32_t ev_t_lo[RING];
static uint8_t ev_t_hi[RING];  // 40-bit times: 12 days of uptime
static uint8_t ev_info[RING];
static uint8_t ring_head, ring_count;
static uint32_t ring_first = 1;  // seq of the oldest held event
static uint32_t next_seq = 1;
static bool overflowed;

static uint32_t resend_wait_ms = RESEND_MS;
static uint32_t oldest_sent_ms;  // when the oldest held event was last sent
static uint32_t send_cursor;     // next seq to (re)send; > last = nothing queued

static void ring_push(uint8_t button, uint64_t t, uint8_t flags) {
  if (ring_count == RING) {  // drop the oldest: the next event says so
    ring_head = (uint8_t)((ring_head + 1) & (RING - 1));
    ring_count--;
    ring_first++;
    overflowed = true;
    if (send_cursor < ring_first) send_cursor = ring_first;
  }
  if (overflowed) {
    flags |= FLAG_OVERFLOW;
    overflowed = false;
  }
  uint8_t idx = (uint8_t)((ring_head + ring_count) & (RING - 1));
  ev_t_lo[idx] = (uint32_t)t;
  ev_t_hi[idx] = (uint8_t)(t >> 32);
  ev_info[idx] = (uint8_t)((flags & 0x0F) | ((button - 1) << 4));
  ring_count++;
  next_seq++;
}

static void ring_ack(uint32_t seq) {
  if (seq >= next_seq) seq = next_seq - 1;
  while (ring_count && ring_first <= seq) {
    ring_head = (uint8_t)((ring_head + 1) & (RING - 1));
    ring_count--;
    ring_first++;
  }
  if (send_cursor < ring_first) send_cursor = ring_first;
}

// Writes event ``seq`` (held in the ring) and marks it sent.
static void send_event(uint32_t seq, uint32_t now_ms) {
  uint8_t idx = (uint8_t)((ring_head + (seq - ring_first)) & (RING - 1));
  uint8_t info = ev_info[idx];
  uint8_t flags = info & 0x0F;
  if (info & 0x80) flags |= FLAG_RESENT;
  ev_info[idx] = (uint8_t)(info | 0x80);
  if (seq == ring_first) oldest_sent_ms = now_ms;
  begin_line();
  PUT("P ");
  put(boot_id);
  PUT(" ");
  put_u32(seq);
  PUT(" ");
  put_u32(((info >> 4) & 0x07) + 1);
  PUT(" ");
  put_u64(((uint64_t)ev_t_hi[idx] << 32) | ev_t_lo[idx]);
  PUT(" ");
  put_hex(flags, 1);
  send_line();
}

// --------------------------------------------------------------------------- state

static bool armed;
static uint8_t led_modes[8];
static uint16_t host_corrupt;
static uint64_t next_heartbeat;
static uint32_t loop_max_us, loop_prev;
static uint32_t aged_ms;

static void send_hello() {
  begin_line();
  PUT("HELLO ");
  put_u32(PROTOCOL_VERSION);
  PUT(" " FIRMWARE_VERSION " ");
  put_u32(N_BUTTONS);
  PUT(" ");
  put(boot_id);
  PUT(" ");
  put(serial_no);
  PUT(" ");
  put_u32(TADAA_DEBOUNCE_US);
  PUT(" ");
  put_u32(next_seq - 1);
  send_line();
}

// --------------------------------------------------------------------------- commands

static char in_buf[MAX_LINE + 2];
static uint8_t in_len;
static bool in_discarding;

// Splits ``s`` in place at spaces (Python's str.split(" "): empty fields kept).
static uint8_t split(char *s, char **parts, uint8_t max) {
  uint8_t n = 0;
  parts[n++] = s;
  for (; *s; s++) {
    if (*s == ' ') {
      *s = 0;
      if (n == max) return n + 1;  // too many fields
      parts[n++] = s + 1;
    }
  }
  return n;
}

static bool parse_u32(const char *s, uint32_t *v) {
  if (!*s) return false;
  uint32_t x = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    if (x > 429496728UL) return false;
    x = x * 10 + (uint32_t)(*s - '0');
  }
  *v = x;
  return true;
}

static void err(const char *code_P, const char *detail) {
  begin_line();
  PUT("ERR ");
  put_P(code_P);
  PUT(" ");
  char d[17];
  strncpy(d, detail, 16);
  d[16] = 0;
  put(d);
  send_line();
}

static void command(char *body, uint64_t t) {
  char *a[4];
  uint8_t n = split(body, a, 4);
  const char *cmd = a[0];
  uint32_t x, y;
  if (!strcmp_P(cmd, PSTR("PING"))) {
    if (n < 2) goto bad;
    begin_line();
    PUT("PONG ");
    put(boot_id);
    PUT(" ");
    char id[17];
    strncpy(id, a[1], 16);
    id[16] = 0;
    put(id);
    PUT(" ");
    put_u64(t);
    send_line();
  } else if (!strcmp_P(cmd, PSTR("INFO"))) {
    send_hello();
  } else if (!strcmp_P(cmd, PSTR("ACK")) || !strcmp_P(cmd, PSTR("RESEND"))) {
    if (n < 3) goto bad;
    if (strcmp(a[1], boot_id)) {
      err(PSTR("BOOT"), boot_id);
      return;
    }
    if (!parse_u32(a[2], &x)) goto bad;
    if (cmd[0] == 'A') {
      ring_ack(x);
      resend_wait_ms = RESEND_MS;
      oldest_sent_ms = millis();
    } else if (ring_count && x < next_seq) {
      if (x < ring_first) x = ring_first;
      if (x < send_cursor) send_cursor = x;  // sent again as the buffer has room
    }
  } else if (!strcmp_P(cmd, PSTR("ARM"))) {
    if (n < 2) goto bad;
    armed = !strcmp(a[1], "1");
    begin_line();
    PUT("OK ARM ");
    put_u32(armed ? 1 : 0);
    send_line();
  } else if (!strcmp_P(cmd, PSTR("LED"))) {
    if (n < 3 || !parse_u32(a[1], &x) || !parse_u32(a[2], &y) || x > N_BUTTONS || y > 3) goto bad;
    for (uint8_t i = 0; i < N_BUTTONS; i++)
      if (x == 0 || x == i + 1u) led_modes[i] = (uint8_t)y;
    begin_line();
    PUT("OK LED ");
    put_u32(x);
    PUT(" ");
    put_u32(y);
    send_line();
  } else {
    err(PSTR("CMD"), cmd);
  }
  return;
bad:
  err(PSTR("ARG"), cmd);
}

// One received line (without "\n"): checked like tadaa_logic.unframe.
static void on_line(char *line, uint8_t n, uint64_t t) {
  if (n && line[n - 1] == '\r') n--;
  bool ok = n >= 6 && n <= MAX_LINE && line[n - 5] == '*';
  uint16_t want = 0;
  if (ok) {
    for (uint8_t i = 0; i < n - 5; i++)
      if (line[i] < 0x20 || line[i] > 0x7E) ok = false;
    for (uint8_t i = n - 4; i < n && ok; i++) {
      char c = line[i];
      if (c >= '0' && c <= '9') want = (uint16_t)(want << 4 | (c - '0'));
      else if (c >= 'A' && c <= 'F') want = (uint16_t)(want << 4 | (c - 'A' + 10));
      else ok = false;
    }
    ok = ok && want == crc16(line, n - 5);
  }
  if (!ok) {
    host_corrupt++;
    begin_line();
    PUT("ERR CRC ");
    put_u32(host_corrupt);
    send_line();
    return;
  }
  line[n - 5] = 0;
  command(line, t);
}

static uint64_t in_started;  // when the current line's first byte was read

static void read_host() {
  while (Serial.available() > 0) {
    int c = Serial.read();
    if (c < 0) return;
    // A command is stamped when its first byte is read: at 115200 baud the rest
    // of the line takes another millisecond to arrive (PONG t_us, clock sync).
    if (in_len == 0 && !in_discarding) in_started = now_us();
    if (c == '\n') {
      if (!in_discarding) on_line(in_buf, in_len, in_started);
      in_discarding = false;
      in_len = 0;
    } else if (!in_discarding) {
      if (in_len >= MAX_LINE + 1) {  // room for a trailing "\r"
        in_discarding = true;
        in_len = 0;
      } else {
        in_buf[in_len++] = (char)c;
      }
    }
  }
}

// --------------------------------------------------------------------------- LEDs

static uint8_t shown_leds = 0xFF;

static void update_leds(uint32_t ms) {
  if (!N_LEDS) return;
  bool blinking = false;
  for (uint8_t i = 0; i < N_BUTTONS; i++) blinking |= led_modes[i] >= 2;
  bool slow = false, fast = false;
  if (blinking) {  // two 32-bit divisions: only when some LED blinks
    slow = ((ms / 500) & 1) == 0;
    fast = ((ms / 125) & 1) == 0;
  }
  uint8_t mask = 0;
  for (uint8_t i = 0; i < N_BUTTONS; i++) {
    uint8_t m = led_modes[i];
    if (m == 1 || (m == 2 && slow) || (m == 3 && fast)) mask |= (uint8_t)(1 << i);
  }
  if (mask == shown_leds) return;
  for (uint8_t i = 0; i < N_LEDS; i++) digitalWrite(LED_PINS[i], (mask >> i) & 1 ? HIGH : LOW);
  shown_leds = mask;
}

// --------------------------------------------------------------------------- main

void setup() {
  for (uint8_t i = 0; i < N_LEDS; i++) {
    pinMode(LED_PINS[i], OUTPUT);
    digitalWrite(LED_PINS[i], LOW);
  }
  Serial.begin(TADAA_BAUD);
  setup_identity();
  uint32_t raw = micros();
  clk_last = raw;
  clk_total = raw;
  setup_buttons(raw);
  uint64_t now = now_us();
  next_heartbeat = now;
  loop_prev = (uint32_t)now;
  send_cursor = 1;
  send_hello();
}

void loop() {
  uint32_t raw = micros();
  uint64_t now = clock_extend(raw);
  uint32_t ms = millis();

  if (any_polled) {
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { sample_now(); }
    uint32_t period = raw - loop_prev;
    if (period > loop_max_us) loop_max_us = period;
  }
  loop_prev = raw;

  // 1. presses, in the order the interrupts saw the changes
  for (;;) {
    uint32_t t32 = 0;
    uint8_t changed_to = deb_mask;
    bool have = false;
    cli();  // (not ATOMIC_BLOCK: it is a loop of its own, a `break` would stay inside)
    if (q_r != q_w) {
      uint8_t r = q_r & (CHANGE_QUEUE - 1);
      t32 = q_t[r];
      changed_to = q_mask[r];
      q_r++;
      have = true;
    } else if (isr_mask != deb_mask) {  // a change folded into an entry already read
      t32 = micros_irq();
      changed_to = isr_mask;
      have = true;
    }
    sei();
    if (!have) break;
    uint8_t mask = debounce(t32, changed_to);
    if (!mask) continue;
    uint64_t t = clock_near(t32);
    bool first = true;
    for (uint8_t i = 0; i < N_BUTTONS; i++) {
      if (!(mask & (1 << i))) continue;
      uint8_t flags = first ? 0 : FLAG_TIE;
      if (!armed) flags |= FLAG_DISARMED;
      first = false;
      bool was_empty = ring_count == 0;
      ring_push(i + 1, t, flags);
      if (was_empty) oldest_sent_ms = ms;
    }
  }

  // 2. host commands
  read_host();

  // 3. heartbeat
  if (now >= next_heartbeat) {
    begin_line();
    PUT("HB ");
    put(boot_id);
    PUT(" ");
    put_u64(now);
    PUT(" ");
    put_u32(next_seq - 1);
    PUT(" ");
    put_u32(ring_count);
    PUT(" ");
    put_u32(any_polled ? (loop_max_us > IRQ_SAMPLE_US ? loop_max_us : IRQ_SAMPLE_US) : IRQ_SAMPLE_US);
    send_line();
    loop_max_us = 0;
    next_heartbeat = now + HEARTBEAT_US;
  }

  // 4. retransmission: nothing acknowledged for a while -> the oldest again
  if (ring_count && send_cursor > ring_first && ms - oldest_sent_ms >= resend_wait_ms) {
    uint32_t last = ring_first + ring_count - 1;
    uint32_t upto = ring_first + RESEND_BATCH - 1;
    uint32_t cursor = send_cursor;
    oldest_sent_ms = ms;
    resend_wait_ms = resend_wait_ms * 2 > RESEND_MAX_MS ? RESEND_MAX_MS : resend_wait_ms * 2;
    for (uint32_t s = ring_first; s <= last && s <= upto; s++) {
      send_event(s, ms);
      if (s + 1 > cursor) cursor = s + 1;
    }
    send_cursor = cursor;
  }

  // 5. new (or requested) events, as the serial buffer has room
  while (ring_count && send_cursor < ring_first + ring_count && Serial.availableForWrite() >= 40) {
    if (send_cursor < ring_first) send_cursor = ring_first;
    send_event(send_cursor, ms);
    send_cursor++;
  }

  update_leds(ms);
  if (ms - aged_ms >= 1000) {  // once a second: it holds the interrupts for a moment
    aged_ms = ms;
    age_debounce(micros());
  }

  // Idle until the next interrupt: a button, a serial byte, a byte sent, or the
  // 1 ms timer tick. Checked with interrupts off, and `sei` takes effect after
  // the `sleep` instruction, so no wake-up is missed. A pin without interrupt
  // needs the loop to spin instead, and so does the 32U4's USB serial: a byte
  // from the host raises no interrupt there, only the next 1 ms frame would wake
  // us, and a ping would be stamped up to 1 ms late.
#if !defined(USBCON)
  if (!any_polled) {
    set_sleep_mode(SLEEP_MODE_IDLE);
    cli();
    if (q_r == q_w && isr_mask == deb_mask && Serial.available() <= 0) {
      sleep_enable();
      sei();
      sleep_cpu();
      sleep_disable();
    }
    sei();
  }
#endif
}
