/**
 * The turnover report's days as whole aggregate buckets (docs/reports.md, "Time zones"): pure date arithmetic, no
 * database. A local day of any zone starts on a quarter of an hour (every zone's offset is a multiple of 15 minutes
 * since the 1970s), so each day is an exact run of buckets: 15-minute ones up to the next hour, hours up to the next
 * UTC midnight, whole UTC days, then hours and quarters again up to the next local midnight.
 */

export type Span = 15 | 60 | 1440;

/** One aggregate bucket to add up, and the period (a local date, or '' for the whole range) it counts for. */
export interface Piece {
  label: string;
  span: Span;
  bucket: Date;
}

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Offsets run from −12:00 to +14:00: a local midnight lies within these bounds of the same date's UTC midnight. */
const EARLIEST = -14 * HOUR - QUARTER;
const LATEST = 12 * HOUR + QUARTER;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether Intl knows the zone (an IANA name such as `Asia/Kathmandu`, or `UTC`). */
export function isTimeZone(tz: string): boolean {
  try {
    formatterOf(tz);
    return true;
  } catch {
    return false;
  }
}

function formatterOf(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (formatters.size >= 256) formatters.clear();
    formatters.set(tz, f);
  }
  return f;
}

/** The date (`YYYY-MM-DD`) an instant falls on in the zone. */
export function localDate(tz: string, ms: number): string {
  const parts = formatterOf(tz).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** The date after `date`. */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
}

/**
 * The first instant of `date` in the zone, or undefined when it does not fall on a quarter of an hour (a zone's
 * local mean time of long ago). Local dates never go backwards as time runs on (a clock set back at midnight repeats
 * the evening before), so the first instant is found by bisection over quarters; `hint`, the instant a day after the
 * day before began, is right but on the days a zone changes its offset.
 */
export function dayStart(tz: string, date: string, hint?: number): number | undefined {
  if (hint !== undefined && startsAt(tz, date, hint)) return hint;
  const midnight = Date.parse(`${date}T00:00:00Z`);
  let before = (midnight + EARLIEST) / QUARTER; // local date before `date`
  let after = (midnight + LATEST) / QUARTER; // local date on or after `date`
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (localDate(tz, mid * QUARTER) < date) before = mid;
    else after = mid;
  }
  const start = after * QUARTER;
  // Offsets are whole seconds: the day began within the last second before `start` only if it began at `start`.
  return startsAt(tz, date, start) ? start : undefined;
}

function startsAt(tz: string, date: string, ms: number): boolean {
  return localDate(tz, ms) >= date && localDate(tz, ms - 1000) < date;
}

/** The buckets covering [from, to), both on quarters, largest first where they fit. */
export function piecesOf(label: string, from: number, to: number): Piece[] {
  const pieces: Piece[] = [];
  for (let at = from; at < to;) {
    const span: Span = at % DAY === 0 && at + DAY <= to ? 1440 : at % HOUR === 0 && at + HOUR <= to ? 60 : 15;
    pieces.push({ label, span, bucket: new Date(at) });
    at += span * MINUTE;
  }
  return pieces;
}

export interface Days {
  /** Each day's first instant, and the instant after the last day: days.length + 1 entries. */
  starts: number[];
  dates: string[];
}

/** The days from `from` to `to` (inclusive) in the zone, or the first date whose start is not on a quarter. */
export function daysOf(tz: string, from: string, to: string): Days | { offQuarter: string } {
  const dates: string[] = [];
  for (let d = from; d <= to; d = nextDate(d)) dates.push(d);
  const starts: number[] = [];
  let hint: number | undefined;
  for (const date of [...dates, nextDate(to)]) {
    const start = dayStart(tz, date, hint);
    if (start === undefined) return { offQuarter: date };
    starts.push(start);
    hint = start + DAY;
  }
  return { starts, dates };
}

/** The pieces of a report: one run per day for a report by day, else one run over the whole range. */
export function reportPieces(days: Days, byDay: boolean): Piece[] {
  if (!byDay) return piecesOf('', days.starts[0], days.starts[days.starts.length - 1]);
  return days.dates.flatMap((date, i) => piecesOf(date, days.starts[i], days.starts[i + 1]));
}

/** The pieces of the 24 hours from `since` (rounded down to its quarter): the home page's "today". */
export function dayPieces(since: Date): Piece[] {
  const from = Math.floor(since.getTime() / QUARTER) * QUARTER;
  return piecesOf('', from, from + DAY);
}
