/**
 * The richer parts of an ad (issue 13): rates, incall / outcall and availability by weekday.
 * Shared by the server (which enforces them) and the forms (which check before submit). Pure.
 */

export const RATE_LINES_MAX = 5;
export const RATE_MINUTES_MIN = 15;
export const RATE_MINUTES_MAX = 24 * 60;
export const RATE_PRICE_MIN_CENTS = 100;
export const RATE_PRICE_MAX_CENTS = 1_000_000;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One line of the rates: how long, and for how much (whole cents). */
export interface RateLine {
  minutes: number;
  priceCents: number;
}

/** Hours by weekday, 'HH:MM' 24-hour; `to` before `from` runs past midnight; a missing day is not available. */
export type Availability = Partial<Record<Weekday, { from: string; to: string }>>;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/** The rates as sent (a JSON array), checked: the list, or null when they break a rule. */
export function parseRates(v: unknown): RateLine[] | null {
  if (!Array.isArray(v) || v.length > RATE_LINES_MAX) return null;
  const out: RateLine[] = [];
  for (const line of v) {
    if (!line || typeof line !== 'object' || Array.isArray(line)) return null;
    const keys = Object.keys(line);
    if (keys.length !== 2 || !keys.includes('minutes') || !keys.includes('priceCents')) return null;
    const { minutes, priceCents } = line as RateLine;
    if (!Number.isInteger(minutes) || minutes < RATE_MINUTES_MIN || minutes > RATE_MINUTES_MAX) return null;
    if (!Number.isInteger(priceCents) || priceCents < RATE_PRICE_MIN_CENTS || priceCents > RATE_PRICE_MAX_CENTS) return null;
    out.push({ minutes, priceCents });
  }
  // One price per duration, shortest first.
  if (new Set(out.map((r) => r.minutes)).size !== out.length) return null;
  return out.sort((a, b) => a.minutes - b.minutes);
}

/** The availability as sent (a JSON object by weekday), checked: the object, or null when it breaks a rule. */
export function parseAvailability(v: unknown): Availability | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const out: Availability = {};
  for (const [day, hours] of Object.entries(v)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) return null;
    if (!hours || typeof hours !== 'object' || Array.isArray(hours)) return null;
    const keys = Object.keys(hours);
    if (keys.length !== 2 || !keys.includes('from') || !keys.includes('to')) return null;
    const { from, to } = hours as { from: unknown; to: unknown };
    if (typeof from !== 'string' || typeof to !== 'string' || !TIME.test(from) || !TIME.test(to) || from === to || from === '24:00') return null;
    out[day as Weekday] = { from, to };
  }
  return Object.fromEntries(WEEKDAYS.filter((d) => out[d]).map((d) => [d, out[d]])) as Availability;
}

/** JSON text of a form field, or undefined when it is not JSON. */
export function parseJsonField(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for('invalid');
  }
}
