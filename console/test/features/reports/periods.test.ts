import { describe, expect, it } from 'vitest';
import { addDays, periodDays, todayIn } from '../../../src/features/reports/components/periods';

describe("a report's periods", () => {
  it.each([
    // 2026-12-02 is a Wednesday.
    ['today', '2026-12-02', { from: '2026-12-02', to: '2026-12-02' }],
    ['week', '2026-12-02', { from: '2026-11-30', to: '2026-12-02' }],
    ['week', '2026-11-30', { from: '2026-11-30', to: '2026-11-30' }],
    ['week', '2026-12-06', { from: '2026-11-30', to: '2026-12-06' }],
    ['week', '2027-01-01', { from: '2026-12-28', to: '2027-01-01' }],
    ['month', '2026-12-02', { from: '2026-12-01', to: '2026-12-02' }],
    ['month', '2024-02-29', { from: '2024-02-01', to: '2024-02-29' }],
  ] as const)('%s on %s', (period, today, days) => {
    expect(periodDays(period, today)).toEqual(days);
  });

  it("counts today in the report's zone, not the browser's", () => {
    // 18:30 UTC on 1 December is already 2 December in Kathmandu (UTC+05:45) and still 1 December in New York.
    const now = new Date('2026-12-01T18:30:00Z');
    expect(todayIn('Asia/Kathmandu', now)).toBe('2026-12-02');
    expect(todayIn('America/New_York', now)).toBe('2026-12-01');
    expect(todayIn('UTC', now)).toBe('2026-12-01');
  });

  it('moves dates across months, years and a leap day', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
  });
});
