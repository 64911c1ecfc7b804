/**
 * The days of a report's period, as the API takes them (YYYY-MM-DD, both included), counted in the report's time
 * zone: "today" at 00:30 in Kathmandu is still yesterday in UTC. Weeks start on Monday.
 */
export type Period = 'today' | 'week' | 'month' | 'custom';

/** Today's date in the zone `tz`, YYYY-MM-DD. */
export function todayIn(tz: string, now = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  );
}

/** A calendar date moved by `days` (dates only: the arithmetic is on a UTC midnight, never on local time). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function periodDays(period: Exclude<Period, 'custom'>, today: string): { from: string; to: string } {
  if (period === 'today') return { from: today, to: today };
  if (period === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  return { from: addDays(today, -weekday), to: today };
}

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The zones to pick from: the browser's list, or the browser's own zone and UTC where it has none. */
export function zones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone');
  return [...new Set([browserZone(), 'UTC', ...(supported ?? [])])];
}
