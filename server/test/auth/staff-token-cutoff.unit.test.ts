import { describe, expect, it } from 'vitest';
import { issuedAtAfter, voidedBy } from '../../src/auth/staff-jwt.js';

/** A token cutoff (ms) against JWT iat (whole seconds): tokens from before are void, tokens from after never are. */
const CUTOFF = new Date('2026-11-25T12:00:05.400Z');
const SECOND = Math.floor(CUTOFF.getTime() / 1000);

describe('voidedBy', () => {
  it.each([
    ['no cutoff', SECOND - 100, null, false],
    ['no cutoff, no iat', null, null, false],
    ['a second before the cutoff\'s', SECOND - 1, CUTOFF, true],
    ['the cutoff\'s own second (issued before it, or in it)', SECOND, CUTOFF, true],
    ['the second after', SECOND + 1, CUTOFF, false],
    ['no iat once there is a cutoff', null, CUTOFF, true],
    ['a cutoff on a whole second, iat that second', SECOND, new Date(SECOND * 1000), true],
    ['a cutoff on a whole second, iat the next', SECOND + 1, new Date(SECOND * 1000), false],
  ] as const)('%s', (_name, iat, cutoff, expected) => {
    expect(voidedBy(iat, cutoff)).toBe(expected);
  });
});

describe('issuedAtAfter', () => {
  it.each([
    ['no cutoff: the clock\'s second', null, CUTOFF.getTime() - 3000, SECOND - 3],
    ['just after the cutoff, in its second: the next second', CUTOFF, CUTOFF.getTime() + 1, SECOND + 1],
    ['at the cutoff exactly', CUTOFF, CUTOFF.getTime(), SECOND + 1],
    ['a clock behind the cutoff (another instance)', CUTOFF, CUTOFF.getTime() - 2500, SECOND + 1],
    ['long after the cutoff: the clock\'s second', CUTOFF, CUTOFF.getTime() + 10_000, SECOND + 10],
  ] as const)('%s', (_name, cutoff, now, expected) => {
    expect(issuedAtAfter(cutoff, now)).toBe(expected);
    // Whatever the clock, the service never issues a token its own cutoff voids.
    expect(voidedBy(expected, cutoff)).toBe(false);
  });
});
