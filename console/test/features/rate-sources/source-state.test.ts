import { describe, expect, it } from 'vitest';
import { ago, duration, sourceState } from '../../../src/features/rate-sources/components/source-state';

const NOW = Date.parse('2026-12-02T10:00:00.000Z');
const at = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000).toISOString();

describe("a rate source's state", () => {
  it.each([
    ['read 10 s ago, no error', { lastSuccessAt: at(10), lastError: null, isStale: false }, 'ok'],
    [
      'last read failed, last good one young',
      { lastSuccessAt: at(100), lastError: 'HTTP 503', isStale: false },
      'failing',
    ],
    ['last good read older than max age', { lastSuccessAt: at(301), lastError: null, isStale: false }, 'stale'],
    ['failing and old: stale wins', { lastSuccessAt: at(400), lastError: 'timeout', isStale: false }, 'stale'],
    ['the API says stale', { lastSuccessAt: at(10), lastError: null, isStale: true }, 'stale'],
    ['never read, not stale yet', { lastSuccessAt: null, lastError: null, isStale: false }, 'waiting'],
    ['never read, first read failed', { lastSuccessAt: null, lastError: 'refused', isStale: false }, 'failing'],
  ] as const)('%s', (_, s, expected) => {
    expect(sourceState({ ...s, maxAgeSeconds: 300 }, NOW)).toBe(expected);
  });

  it('says how long ago and how long in words', () => {
    expect([ago(at(5), NOW), ago(at(300), NOW), ago(at(7200), NOW), ago(at(3 * 86400), NOW)]).toEqual([
      '5 s ago',
      '5 min ago',
      '2 h ago',
      '3 d ago',
    ]);
    expect([duration(45), duration(300), duration(90), duration(5400), duration(86400)]).toEqual([
      '45 s',
      '5 min',
      '1 min 30 s',
      '1 h 30 min',
      '1 d',
    ]);
  });
});
