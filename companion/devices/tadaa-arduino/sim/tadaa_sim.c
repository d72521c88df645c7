/*
 * tadaa_sim: runs the Tadaa Arduino firmware (the very ELF built for the
 * ATmega328P) on simavr, with its UART on a pseudo-terminal and its button pins
 * driven by commands, paced to real time.
 *
 *   tadaa_sim [-m atmega328p] [-f 16000000] [-s SERIAL16HEX] [-r D2,D3,..] firmware.elf
 *
 * -s writes the serial number into the chip's EEPROM (else the firmware draws
 * one); -r lists the pins held high from the first cycle (released buttons).
 *
 * The chip's clock is tied to the host's CLOCK_MONOTONIC: cycle c runs no
 * earlier than t0 + c / f (the loop sleeps until the wall clock catches up), so
 * the firmware's micros() advances with real time and the host's clock sync is
 * honest. If the emulation falls behind (the process was not scheduled) it runs
 * flat out to catch up, and host bytes wait until the chip's time has reached
 * the moment they were read: a lag delays, it never reverses cause and effect.
 * The largest lag is reported (`stats`).
 *
 * Commands on stdin, one a line:
 *   pin <port><bit> <0|1> <mono_ns>   set an input pin at host time mono_ns (0: now);
 *                                     edges at the same mono_ns land in the same cycle
 *   unplug                            close the pty (the host sees the device vanish)
 *   plug                              open a new pty
 *   reset                             reset the chip (a new boot)
 *   watch <port><bit>                 report the pin's level whenever the chip changes it
 *   stats                             report the pacing lag
 *   quit
 * Reports on stdout (lines starting with "@", everything else is simavr's chatter):
 *   @READY <freq> <t0_mono_ns>        cycle 0 is at t0 (pacing anchor)
 *   @PTY <path>                       the serial port to open
 *   @EDGE <port><bit> <level> <cycle> applied at this exact cycle
 *   @PIN <port><bit> <level> <cycle>  a watched pin changed (e.g. an LED)
 *   @UNPLUGGED / @RESET <cycle>
 *   @STATS <cycle> <max_lag_us> <lag_us>
 *
 * Why not simavr's uart_pty part: it keeps its slave end open for the life of
 * the process and cannot be closed and reopened, so an unplug cannot be shown;
 * and it feeds the UART from a second thread while the core runs. This bridge
 * uses the same UART IRQs (output, input, xon/xoff) from the one thread that
 * runs the core, between instructions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_eeprom.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_irq.h"

#define SERVICE_CYCLES 1600 /* 100 us at 16 MHz: pty, stdin and pacing checks */
#define MAX_EDGES 4096

typedef struct {
  uint64_t cycle;
  char port;
  uint8_t bit, level;
} edge_t;

static avr_t *avr;
static uint64_t t0_ns;
static double freq;

static edge_t edges[MAX_EDGES];
static int n_edges;

static int master = -1;  /* pty master, -1 while unplugged */
static uint8_t to_avr[4096];
static size_t to_avr_len, to_avr_done;
static uint8_t to_host[4096];
static size_t to_host_len;
static int xon;
static avr_irq_t *uart_in;
static avr_irq_t *bridge_irq; /* [0]: bytes out of the AVR, [1]: bytes into it */
static double max_lag_us, last_lag_us;

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t ns_of_cycle(uint64_t c) { return t0_ns + (uint64_t)((double)c * 1e9 / freq); }
static uint64_t cycle_of_ns(uint64_t ns) {
  return ns <= t0_ns ? 0 : (uint64_t)((double)(ns - t0_ns) * freq / 1e9);
}

/* ------------------------------------------------------------------ UART bridge */

static void byte_out_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  if (master >= 0 && to_host_len < sizeof(to_host)) to_host[to_host_len++] = (uint8_t)value;
}

/* Bytes from the host reach the chip no earlier (in chip time) than they were
 * read from the pty (in host time): when the emulation lags behind real time
 * (the process was not scheduled), they wait for it to catch up. So every
 * command the chip stamps lies after the host wrote it - the clock sync's
 * intervals hold the truth whatever the machine's load. */
#define MAX_CHUNKS 64
static size_t chunk_end[MAX_CHUNKS];
static uint64_t chunk_ns[MAX_CHUNKS];
static int n_chunks;

static void feed_avr(void) {
  uint64_t chip_ns = ns_of_cycle(avr->cycle);
  int c = 0;
  while (xon && to_avr_done < to_avr_len) {
    while (c < n_chunks && chunk_end[c] <= to_avr_done) c++;
    if (c < n_chunks && chunk_ns[c] > chip_ns) break; /* not yet, in chip time */
    avr_raise_irq(uart_in, to_avr[to_avr_done++]);
  }
  if (to_avr_done == to_avr_len) {
    to_avr_done = to_avr_len = 0;
    n_chunks = 0;
  }
}

static void xon_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)value;
  (void)param;
  xon = 1;
  feed_avr();
}

static void xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  if (value) xon = 0;
}

static void plug(void) {
  int m, s;
  char name[128];
  if (master >= 0) return;
  if (openpty(&m, &s, name, NULL, NULL) < 0) {
    fprintf(stderr, "tadaa_sim: openpty: %s\n", strerror(errno));
    exit(1);
  }
  struct termios tio;
  tcgetattr(m, &tio);
  cfmakeraw(&tio);
  tcsetattr(m, TCSANOW, &tio);
  tcgetattr(s, &tio);
  cfmakeraw(&tio);
  tcsetattr(s, TCSANOW, &tio);
  fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
  close(s); /* the host opens it; until then the master sees a hang-up */
  master = m;
  to_host_len = 0;
  printf("@PTY %s\n", name);
}

static void unplug(void) {
  if (master < 0) return;
  close(master);
  master = -1;
  to_host_len = to_avr_len = to_avr_done = 0;
  n_chunks = 0;
  printf("@UNPLUGGED %llu\n", (unsigned long long)avr->cycle);
}

static void service_pty(void) {
  if (master < 0) return;
  struct pollfd p = {master, POLLIN, 0};
  poll(&p, 1, 0);
  int hung_up = (p.revents & POLLHUP) != 0; /* nobody has the port open */
  if (to_host_len) {
    /* A closed port drops what the chip sends, as a USB-serial chip does. */
    if (!hung_up) {
      ssize_t w = write(master, to_host, to_host_len);
      if (w > 0 && (size_t)w < to_host_len) memmove(to_host, to_host + w, to_host_len - (size_t)w);
      if (w > 0) to_host_len -= (size_t)w;
    } else {
      to_host_len = 0;
    }
  }
  if (!hung_up && (p.revents & POLLIN) && to_avr_len < sizeof(to_avr) && n_chunks < MAX_CHUNKS) {
    ssize_t r = read(master, to_avr + to_avr_len, sizeof(to_avr) - to_avr_len);
    if (r > 0) {
      to_avr_len += (size_t)r;
      chunk_end[n_chunks] = to_avr_len;
      chunk_ns[n_chunks++] = mono_ns();
    }
  }
  feed_avr();
}

/* ------------------------------------------------------------------ pins */

static void apply_due_edges(void) {
  int keep = 0;
  for (int i = 0; i < n_edges; i++) {
    edge_t *e = &edges[i];
    if (e->cycle <= avr->cycle) {
      avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(e->port), e->bit);
      if (irq) avr_raise_irq(irq, e->level);
      printf("@EDGE %c%u %u %llu\n", e->port, e->bit, e->level, (unsigned long long)avr->cycle);
    } else {
      edges[keep++] = *e;
    }
  }
  n_edges = keep;
}

static uint64_t next_edge_cycle(void) {
  uint64_t next = UINT64_MAX;
  for (int i = 0; i < n_edges; i++)
    if (edges[i].cycle < next) next = edges[i].cycle;
  return next;
}

static void pin_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  const char *name = (const char *)param;
  (void)irq;
  printf("@PIN %s %u %llu\n", name, value ? 1 : 0, (unsigned long long)avr->cycle);
}

/* The chip idles between interrupts (sleep mode): simavr then jumps to the next
 * cycle timer. These two timers bound every jump, so the service loop runs at
 * least every SERVICE_CYCLES and a scheduled edge lands on its exact cycle. */
static avr_cycle_count_t tick_timer(avr_t *a, avr_cycle_count_t when, void *param) {
  (void)a;
  (void)param;
  return when + SERVICE_CYCLES;
}

static avr_cycle_count_t edge_timer(avr_t *a, avr_cycle_count_t when, void *param) {
  (void)a;
  (void)when;
  (void)param;
  return 0;
}

/* Pacing is the service loop's: no usleep inside simavr's sleep. */
static uint64_t slept_cycles;
static void no_sleep(avr_t *a, avr_cycle_count_t how_long) {
  (void)a;
  slept_cycles += 1 + how_long;
}

static void arm_edge(uint64_t next) {
  if (next != UINT64_MAX)
    avr_cycle_timer_register(avr, next > avr->cycle ? next - avr->cycle : 1, edge_timer, NULL);
}

static void arm_timers(void) {
  avr_cycle_timer_register(avr, SERVICE_CYCLES, tick_timer, NULL);
  arm_edge(next_edge_cycle());
}

/* ------------------------------------------------------------------ commands */

static char cmd_buf[8192];
static size_t cmd_len;
static int quit;

static void command(char *line) {
  char port;
  unsigned bit, level;
  unsigned long long when;
  if (sscanf(line, "pin %c%u %u %llu", &port, &bit, &level, &when) == 4) {
    if (n_edges < MAX_EDGES && bit < 8) {
      uint64_t c = when ? cycle_of_ns(when) : avr->cycle;
      edges[n_edges++] = (edge_t){c < avr->cycle ? avr->cycle : c, port, (uint8_t)bit, level ? 1 : 0};
    }
  } else if (sscanf(line, "watch %c%u", &port, &bit) == 2 && bit < 8) {
    avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), bit);
    char *name = malloc(3);
    if (irq && name) {
      name[0] = port;
      name[1] = (char)('0' + bit);
      name[2] = 0;
      avr_irq_register_notify(irq, pin_hook, name);
    }
  } else if (!strcmp(line, "unplug")) {
    unplug();
  } else if (!strcmp(line, "plug")) {
    plug();
  } else if (!strcmp(line, "reset")) {
    avr_reset(avr); /* clears the cycle timers too */
    arm_timers();
    printf("@RESET %llu\n", (unsigned long long)avr->cycle);
  } else if (!strcmp(line, "stats")) {
    printf("@STATS %llu %.0f %.0f %.0f\n", (unsigned long long)avr->cycle, max_lag_us, last_lag_us,
           100.0 * (double)slept_cycles / (double)(avr->cycle ? avr->cycle : 1));
  } else if (!strcmp(line, "quit")) {
    quit = 1;
  }
}

static void service_stdin(void) {
  struct pollfd p = {0, POLLIN, 0};
  if (poll(&p, 1, 0) <= 0) return;
  if (p.revents & (POLLHUP | POLLERR) && !(p.revents & POLLIN)) {
    quit = 1;
    return;
  }
  ssize_t r = read(0, cmd_buf + cmd_len, sizeof(cmd_buf) - 1 - cmd_len);
  if (r <= 0) {
    quit = 1; /* the controlling process went away */
    return;
  }
  cmd_len += (size_t)r;
  char *start = cmd_buf, *nl;
  while ((nl = memchr(start, '\n', cmd_len - (size_t)(start - cmd_buf)))) {
    *nl = 0;
    command(start);
    start = nl + 1;
  }
  cmd_len -= (size_t)(start - cmd_buf);
  memmove(cmd_buf, start, cmd_len);
  if (cmd_len == sizeof(cmd_buf) - 1) cmd_len = 0; /* an absurd line: drop it */
}

/* ------------------------------------------------------------------ pacing */

static void pace(void) {
  uint64_t target = ns_of_cycle(avr->cycle);
  uint64_t now = mono_ns();
  /* Never ahead of real time: what the chip sent up to this cycle is handed to
   * the host only once the wall clock has reached the cycle. */
  if (target > now) {
    struct timespec ts = {(time_t)(target / 1000000000ull), (long)(target % 1000000000ull)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    last_lag_us = 0;
  } else if (now > target) {
    last_lag_us = (double)(now - target) / 1000.0;
    if (last_lag_us > max_lag_us) max_lag_us = last_lag_us;
  }
}

int main(int argc, char **argv) {
  const char *mcu = "atmega328p";
  const char *serial = NULL;
  const char *rest_high = "D2,D3,D4,D5,D6,D7,B0,B1"; /* config.h's buttons on a 328P */
  freq = 16000000.0;
  int opt;
  while ((opt = getopt(argc, argv, "m:f:s:r:")) != -1) {
    if (opt == 'm') mcu = optarg;
    else if (opt == 'f') freq = atof(optarg);
    else if (opt == 's') serial = optarg;
    else if (opt == 'r') rest_high = optarg;
    else {
      fprintf(stderr, "usage: %s [-m mcu] [-f hz] [-s serial16hex] [-r pins] firmware.elf\n", argv[0]);
      return 2;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "usage: %s [-m mcu] [-f hz] [-s serial16hex] [-r pins] firmware.elf\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);

  elf_firmware_t fw;
  memset(&fw, 0, sizeof(fw));
  if (elf_read_firmware(argv[optind], &fw) != 0) {
    fprintf(stderr, "tadaa_sim: cannot read %s\n", argv[optind]);
    return 1;
  }
  avr = avr_make_mcu_by_name(mcu);
  if (!avr) return 1;
  avr_init(avr);
  avr->log = 0;
  fw.frequency = (uint32_t)freq;
  avr_load_firmware(avr, &fw);
  avr->frequency = (uint32_t)freq;
  avr->sleep = no_sleep;

  if (serial) {
    /* The firmware keeps its serial number in EEPROM: "TDA1" + 8 bytes + boots. */
    uint8_t ee[16] = {'T', 'D', 'A', '1'};
    for (int i = 0; i < 8 && serial[2 * i] && serial[2 * i + 1]; i++) {
      unsigned b;
      sscanf(serial + 2 * i, "%2x", &b);
      ee[4 + i] = (uint8_t)b;
    }
    avr_eeprom_desc_t d = {.ee = ee, .offset = 0, .size = sizeof(ee)};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_SET, &d);
  }

  /* UART 0 <-> pty, without simavr's console echo and its polling usleep */
  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POOL_SLEEP);
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  static const char *names[2] = {"8<tadaa.out", "8>tadaa.in"};
  bridge_irq = avr_alloc_irq(&avr->irq_pool, 0, 2, names);
  avr_irq_register_notify(bridge_irq + 0, byte_out_hook, NULL);
  avr_connect_irq(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), bridge_irq + 0);
  uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), xon_hook, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), xoff_hook, NULL);

  /* Button pins rest high (pull-up, not pressed) from the first cycle. */
  for (const char *p = rest_high; *p;) {
    if (*p == ',' || *p == ' ') {
      p++;
      continue;
    }
    if (!p[1]) break;
    avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(p[0]), p[1] - '0');
    if (irq) avr_raise_irq(irq, 1);
    p += 2;
  }

  plug();
  t0_ns = mono_ns();
  printf("@READY %.0f %llu\n", freq, (unsigned long long)t0_ns);

  arm_timers();
  uint64_t next_service = 0, next_edge = UINT64_MAX;
  while (!quit) {
    int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) {
      printf("@CRASHED %llu\n", (unsigned long long)avr->cycle);
      return 1;
    }
    if (avr->cycle >= next_edge) {
      apply_due_edges();
      next_edge = next_edge_cycle();
      arm_edge(next_edge);
    }
    if (avr->cycle >= next_service) {
      next_service = avr->cycle + SERVICE_CYCLES;
      pace();
      service_pty();
      int before = n_edges;
      service_stdin();
      if (n_edges != before) {
        next_edge = next_edge_cycle();
        arm_edge(next_edge);
      }
    }
  }
  unplug();
  return 0;
}
