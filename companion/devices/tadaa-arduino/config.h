// Tadaa Arduino firmware: pins and options. Edit to match your wiring.
//
// Buttons are numbered 1..N in the order of TADAA_BUTTON_PINS (N = 1 to 8; a
// one-player button is simply one pin). Each button switches its pin to GND
// (internal pull-up, no resistor needed). LEDs: one per button in the same
// order, each through a resistor to GND (or leave TADAA_LED_PINS empty: {}).
//
// Pins are Arduino pin numbers. A pin with a pin-change interrupt (ATmega328P:
// every digital and analog pin; ATmega32U4: 8-11, 14-16) or an external
// interrupt (328P: 2, 3; 32U4: 0, 1, 2, 3, 7) is timed by its interrupt; any
// other pin is sampled by the main loop (slower, reported in the heartbeat).
#ifndef TADAA_CONFIG_H
#define TADAA_CONFIG_H

#if defined(__AVR_ATmega32U4__)
// Leonardo, Pro Micro, Micro: every button pin has an interrupt on both boards.
// LED 8 is D16 (MOSI: on the Pro Micro's header, on the Leonardo's ICSP header).
#define TADAA_BUTTON_PINS {2, 3, 7, 8, 9, 10, 0, 1}
#define TADAA_LED_PINS {4, 5, 6, A0, A1, A2, A3, 16}
#else
// Uno, Nano (ATmega328P): buttons on D2-D9, LEDs on D10-D13 and A0-A3.
#define TADAA_BUTTON_PINS {2, 3, 4, 5, 6, 7, 8, 9}
#define TADAA_LED_PINS {10, 11, 12, 13, A0, A1, A2, A3}
#endif

// Lock-out after a press, and how long a button must be released before it
// counts again (so release bounce never reads as a new press). Microseconds.
#define TADAA_DEBOUNCE_US 30000UL

// 1: buttons switch the pin to GND (internal pull-up). 0: to VCC (add pull-downs).
#define TADAA_ACTIVE_LOW 1

// Serial speed of the ATmega328P's UART (to the USB-serial chip). The host opens
// ports at 115200; the 32U4's native USB ignores it.
#define TADAA_BAUD 115200

#endif
