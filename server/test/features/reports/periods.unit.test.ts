import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayStart, daysOf, localDate, piecesOf, reportPieces } from '../../../src/features/reports/periods.js';

const at = (iso: string) => Date.parse(iso);

describe("a report's days as buckets", () => {
  it.each([
    ['UTC', '2026-03-29', '2026-03-29T00:00:00Z'],
    ['Asia/Kathmandu', '2026-03-29', '2026-03-28T18:15:00Z'],
    ['Asia/Kolkata', '2026-03-29', '2026-03-28T18:30:00Z'],
    ['Pacific/Chatham', '2026-07-01', '2026-06-30T11:15:00Z'],
    ['America/St_Johns', '2026-03-08', '2026-03-08T03:30:00Z'],
    ['America/St_Johns', '2026-03-09', '2026-03-09T02:30:00Z'],
    ['Europe/London', '2026-03-30', '2026-03-29T23:00:00Z'],
    ['Pacific/Kiritimati', '2026-01-01', '2025-12-31T10:00:00Z'],
    ['Pacific/Pago_Pago', '2026-01-01', '2026-01-01T11:00:00Z'],
  ])('in %s, %s starts at %s', (tz, date, iso) => {
    expect(dayStart(tz, date)).toBe(at(iso));
  });

  it("cuts a quarter-hour zone's day into quarters, hours and a day where they fit", () => {
    const pieces = piecesOf('d', at('2026-03-28T18:15:00Z'), at('2026-03-29T18:15:00Z'));
    expect(pieces.map((p) => p.span)).toEqual([15, 15, 15, ...Array(23).fill(60), 15]);
    const month = daysOf('UTC', '2026-03-01', '2026-03-30');
    if ('offQuarter' in month) throw new Error('UTC days start on quarters');
    expect(reportPieces(month, false).map((p) => p.span)).toEqual(Array(30).fill(1440));
    expect(reportPieces(month, true).map((p) => p.label)).toEqual(month.dates);
  });

  it('refuses a day that does not start on a quarter of an hour (local mean time)', () => {
    expect(daysOf('Africa/Monrovia', '1971-06-01', '1971-06-02')).toEqual({ offQuarter: '1971-06-01' });
    expect(dayStart('Pacific/Kiritimati', '1975-01-01')).toBeUndefined();
  });

  it('tiles consecutive days exactly, each piece inside its local date, in every zone and across clock changes', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({ min: new Date('1990-01-01'), max: new Date('2037-12-31'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 40 }),
        (tz, first, count) => {
          const from = first.toISOString().slice(0, 10);
          const to = new Date(first.getTime() + (count - 1) * 86_400_000).toISOString().slice(0, 10);
          const days = daysOf(tz, from, to);
          if ('offQuarter' in days) throw new Error(`${tz} ${days.offQuarter}`);
          const pieces = reportPieces(days, true);
          let next = days.starts[0];
          for (const p of pieces) {
            expect(p.bucket.getTime()).toBe(next);
            const end = next + p.span * 60_000;
            expect(localDate(tz, next)).toBe(p.label);
            expect(localDate(tz, end - 1)).toBe(p.label);
            expect(next % (p.span * 60_000)).toBe(0);
            next = end;
          }
          expect(next).toBe(days.starts.at(-1));
          expect(localDate(tz, next)).toBe(
            new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
