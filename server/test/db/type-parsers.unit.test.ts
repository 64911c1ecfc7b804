import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { getTypeParser, parseTimestamptz } from '../../src/db/type-parsers.js';

const general = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;
const asTime = (v: unknown) => (v instanceof Date ? v.getTime() : v);

describe('timestamptz parser', () => {
  it('reads UTC timestamps exactly as the general parser does', () => {
    const samples = [
      '2026-11-21 09:20:15+00',
      '2026-11-21 09:20:15.1+00',
      '2026-11-21 09:20:15.12+00',
      '2026-11-21 09:20:15.123+00',
      '2026-11-21 09:20:15.1234+00',
      '2026-11-21 09:20:15.999999+00',
      '2024-02-29 23:59:59.000001+00',
      '1970-01-01 00:00:00+00',
      '0100-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999999+00',
    ];
    for (const text of samples) {
      const fast = parseTimestamptz(text, () => {
        throw new Error(`fell back for ${text}`);
      });
      expect(asTime(fast), text).toBe(asTime(general(text)));
    }
  });

  it('hands every other form to the general parser', () => {
    for (const text of [
      '2026-11-21 10:20:15.5+01',
      '2026-11-21 03:50:15-05:30',
      '0050-01-01 00:00:00+00',
      '2026-01-01 00:00:00+00 BC',
      'infinity',
      '-infinity',
      '12026-01-01 00:00:00+00',
    ]) {
      let used = false;
      const value = parseTimestamptz(text, (t) => {
        used = true;
        return general(t);
      });
      expect(used, text).toBe(true);
      expect(asTime(value)).toEqual(asTime(general(text)));
    }
  });

  it('is the parser of timestamptz and int8 columns', () => {
    expect(asTime((getTypeParser(1184) as (t: string) => unknown)('2026-11-21 09:20:15.5+00'))).toBe(
      Date.UTC(2026, 10, 21, 9, 20, 15, 500),
    );
    expect((getTypeParser(20) as (t: string) => unknown)('42')).toBe(42);
  });
});
