import pg from 'pg';

const INT8 = 20;
const TIMESTAMPTZ = 1184;

// "2026-11-21 09:20:15.123456+00": a timestamptz as PostgreSQL writes it in a UTC session.
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;
const digits = (s: string, from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + s.charCodeAt(i) - 48;
  return n;
};

/**
 * UTC timestamps are read by position instead of by postgres-date's three capturing regular expressions,
 * which made a tenth of the garbage of a list page. Any other form (an offset, BC, a year before 100, infinity)
 * goes to the general parser.
 */
export function parseTimestamptz(text: string, general: (text: string) => unknown): unknown {
  if (!UTC_TIMESTAMP.test(text)) return general(text);
  const year = digits(text, 0, 4);
  if (year < 100) return general(text);
  const fractionEnd = text.length - 3;
  const ms = fractionEnd > 20 ? Math.floor(digits(text, 20, fractionEnd) / 10 ** (fractionEnd - 20 - 3)) : 0;
  return new Date(
    Date.UTC(
      year,
      digits(text, 5, 7) - 1,
      digits(text, 8, 10),
      digits(text, 11, 13),
      digits(text, 14, 16),
      digits(text, 17, 19),
      ms,
    ),
  );
}

const generalTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;

/** The pg type parsers of every connection: int8 as a number (every such value here fits), fast UTC timestamps. */
export function getTypeParser(oid: number, format?: 'text' | 'binary') {
  if (oid === INT8) return Number;
  if (oid === TIMESTAMPTZ && format !== 'binary') return (text: string) => parseTimestamptz(text, generalTimestamptz);
  return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
}
