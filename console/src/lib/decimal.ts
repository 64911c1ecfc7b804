import { decimal, grouped } from './format';

/**
 * Exact arithmetic on amounts as the API sends them (JSON numbers or decimal strings): each is read as an integer of
 * its smallest unit (a BigInt) and a scale, so a cash count's difference is 1234.50 − 1234.45 = 0.05, never
 * 0.04999999999999982.
 */
interface Scaled {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Whether `text` is a plain decimal number, such as 1250 or 1250.50 (no sign, no exponent, no grouping). */
export function isDecimal(text: string): boolean {
  return /^\d+(\.\d+)?$/.test(text);
}

/** How many digits follow the point: 2 for "10.50", 0 for "10". */
export function places(text: string): number {
  return /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
}

function scaled(value: number | string): Scaled {
  const m = DECIMAL.exec(decimal(value));
  if (!m) throw new Error(`Not a decimal number: ${String(value)}`);
  const [, sign, whole, fraction = ''] = m;
  const units = BigInt(whole! + fraction);
  return { units: sign ? -units : units, scale: fraction.length };
}

function aligned(a: number | string, b: number | string): [bigint, bigint, number] {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  return [x.units * 10n ** BigInt(scale - x.scale), y.units * 10n ** BigInt(scale - y.scale), scale];
}

function text(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** a − b, exactly, with as many decimals as the longer of the two. */
export function subtract(a: number | string, b: number | string): string {
  const [x, y, scale] = aligned(a, b);
  return text(x - y, scale);
}

/** −1, 0 or 1 as a is less than, equal to or greater than b. */
export function compare(a: number | string, b: number | string): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An amount with its sign in front, grouped as the locale writes numbers: "+1,250.50", "−3", "0" (a true minus sign). */
export function signedAmount(value: number | string, decimals?: number): string {
  const shown = money(value, decimals);
  if (shown.startsWith('-')) return `−${shown.slice(1)}`;
  return compare(value, 0) === 0 ? shown : `+${shown}`;
}

/**
 * An amount written with its currency's decimals, grouped: the API sends 1000.5 as a JSON number, the till says
 * 1,000.50. Only zeros are added; a figure with more places than `decimals` is shown as it is, never rounded.
 */
export function money(value: number | string, decimals: number | undefined): string {
  const plain = decimal(value);
  const missing = (decimals ?? 0) - places(plain);
  if (missing <= 0) return grouped(plain);
  return grouped(`${plain}${places(plain) === 0 ? '.' : ''}${'0'.repeat(missing)}`);
}

/** a × b, exactly: the scales add up (1.25 × 0.5 = 0.625). */
export function multiply(a: number | string, b: number | string): string {
  const x = scaled(a);
  const y = scaled(b);
  return trimmed(text(x.units * y.units, x.scale + y.scale));
}

/** a ÷ b cut (not rounded) to `decimals` places: 1 ÷ 3 to 4 places is 0.3333. Throws on b = 0. */
export function divide(a: number | string, b: number | string, decimals: number): string {
  const [x, y] = aligned(a, b);
  if (y === 0n) throw new Error('Division by zero');
  return text((x * 10n ** BigInt(decimals)) / y, decimals);
}

/** Trailing zeros of the fraction dropped: "0.62500" → "0.625", "2.000" → "2". */
export function trimmed(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}
