/** Amounts come as JSON numbers or decimal strings: shown digit for digit, never through float arithmetic. */
export function amount(value: number | string | undefined | null): string {
  if (value === undefined || value === null) return '—';
  return grouped(value);
}

const integers = new Intl.NumberFormat(undefined, { useGrouping: true });
const point =
  new Intl.NumberFormat(undefined, { minimumFractionDigits: 1 }).formatToParts(0.5).find((p) => p.type === 'decimal')
    ?.value ?? '.';

/**
 * An amount or a count as the user's locale writes numbers (10,000.25 in English, 10.000,25 in German, 1,00,000 in
 * India), digit for digit: the whole part is formatted as a BigInt, which Intl groups exactly at any size, and the
 * fraction is copied as given, so 0.1 + 0.2 never happens and 1234.50 keeps its last zero. The one way every
 * figure of the console is shown; an input being edited keeps the plain digits (`decimal`).
 */
export function grouped(value: number | string | bigint): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(typeof value === 'bigint' ? value.toString() : decimal(value));
  if (!m) return String(value);
  const [, sign, whole, fraction] = m;
  return `${sign}${integers.format(BigInt(whole!))}${fraction === undefined ? '' : `${point}${fraction}`}`;
}

/**
 * A number in plain decimal notation, digit for digit: JavaScript writes 0.0000002 as "2e-7", which no one at a
 * counter reads and the API refuses when it comes back. The exponent moves the point along the digit string.
 */
export function decimal(value: number | string): string {
  const text = String(value);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]?\d+)$/i.exec(text);
  if (!m) return text;
  const [, sign, whole, fraction = '', exponent] = m;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + plain.replace(/^0+(?=\d)/, '');
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
