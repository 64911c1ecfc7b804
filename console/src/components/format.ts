/** Amounts come as JSON numbers or decimal strings: shown as given, never through float arithmetic. */
export function amount(value: number | string | undefined | null): string {
  if (value === undefined || value === null) return '—';
  return String(value);
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

export function when(value: string | null | undefined): string {
  return value ? dateTime.format(new Date(value)) : '—';
}

/** "3 min", "2 h 5 min", "4 d": how long something has been waiting. */
export function age(from: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(from).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${Math.floor(minutes / 1440)} d`;
}
