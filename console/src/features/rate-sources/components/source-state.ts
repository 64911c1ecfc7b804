import type { RateSource } from '../api/rate-sources';

export type SourceState = 'ok' | 'failing' | 'stale' | 'waiting';

/**
 * A source's health as the offers priced from it feel it: stale (no good read for maxAgeSeconds: they are suspended)
 * outranks failing (the last read failed but the last good one is still young enough: they keep their rate), and a
 * source never read yet is waiting until its first read or its max age.
 */
export function sourceState(
  s: Pick<RateSource, 'lastSuccessAt' | 'lastError' | 'maxAgeSeconds' | 'isStale'>,
  now = Date.now(),
): SourceState {
  const old = s.lastSuccessAt !== null && now - new Date(s.lastSuccessAt).getTime() > s.maxAgeSeconds * 1000;
  if (s.isStale || old) return 'stale';
  if (s.lastError !== null) return 'failing';
  return s.lastSuccessAt === null ? 'waiting' : 'ok';
}

export const STATE_WORDS: Record<SourceState, { label: string; color: string }> = {
  ok: { label: 'OK', color: 'teal' },
  failing: { label: 'Failing', color: 'orange' },
  stale: { label: 'Stale', color: 'red' },
  waiting: { label: 'Not read yet', color: 'gray' },
};

/** "12 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function ago(at: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - new Date(at).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

/** 45 → "45 s", 300 → "5 min", 5400 → "1 h 30 min", 86400 → "1 d". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600)
    return seconds % 60 === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  if (seconds < 86400) {
    const minutes = Math.floor((seconds % 3600) / 60);
    return `${Math.floor(seconds / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
  }
  const hours = Math.floor((seconds % 86400) / 3600);
  return `${Math.floor(seconds / 86400)} d${hours ? ` ${hours} h` : ''}`;
}

/** The four formats a source can read, in words for the form's select. */
export const KINDS: { value: RateSource['kind']; label: string; description: string }[] = [
  {
    value: 'ecb',
    label: 'ECB',
    description: "The European Central Bank's eurofxref-daily.xml (EUR against ~30 currencies, daily)",
  },
  {
    value: 'cbr',
    label: 'Bank of Russia',
    description: "The Bank of Russia's XML_daily.asp (RUB against ~40 currencies, daily)",
  },
  { value: 'binance', label: 'Binance', description: "Binance's /api/v3/ticker/price (every symbol's last price)" },
  {
    value: 'json',
    label: 'JSON',
    description: 'Our own JSON: {"rates": {"USD/RUB": "91.55", …}}, from any service of yours',
  },
];

export const kindLabel = (kind: RateSource['kind']) => KINDS.find((k) => k.value === kind)?.label ?? kind;
