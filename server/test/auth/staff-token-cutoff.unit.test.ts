import { describe, expect, it } from 'vitest';
import { acceptsToken, issuedAtAfter, StaffTokens, voidedBy } from '../../src/auth/staff-jwt.js';

/** A token cutoff (ms) against JWT iat (whole seconds): tokens from before are void, tokens from after never are. */
const CUTOFF = new Date('2026-11-25T12:00:05.400Z');
const SECOND = Math.floor(CUTOFF.getTime() / 1000);

describe('voidedBy', () => {
  it.each([
    ['no cutoff', SECOND - 100, null, false],
    ['no cutoff, no iat', null, null, false],
    ["a second before the cutoff's", SECOND - 1, CUTOFF, true],
    ["the cutoff's own second (issued before it, or in it)", SECOND, CUTOFF, true],
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
    ["no cutoff: the clock's second", null, CUTOFF.getTime() - 3000, SECOND - 3],
    ['just after the cutoff, in its second: the next second', CUTOFF, CUTOFF.getTime() + 1, SECOND + 1],
    ['at the cutoff exactly', CUTOFF, CUTOFF.getTime(), SECOND + 1],
    ['a clock behind the cutoff (another instance)', CUTOFF, CUTOFF.getTime() - 2500, SECOND + 1],
    ["long after the cutoff: the clock's second", CUTOFF, CUTOFF.getTime() + 10_000, SECOND + 10],
  ] as const)('%s', (_name, cutoff, now, expected) => {
    expect(issuedAtAfter(cutoff, now)).toBe(expected);
    // Whatever the clock, the service never issues a token its own cutoff voids.
    expect(voidedBy(expected, cutoff)).toBe(false);
  });
});

describe('acceptsToken', () => {
  const user = (is_active: boolean, tokens_valid_after: Date | null) => ({ is_active, tokens_valid_after });
  it.each([
    ['an active user without a cutoff', user(true, null), null, true],
    ['an active user, a token after the cutoff', user(true, CUTOFF), SECOND + 1, true],
    ['an active user, a token the cutoff voids', user(true, CUTOFF), SECOND, false],
    ['an inactive user', user(false, null), SECOND + 1, false],
    ['no user', undefined, SECOND + 1, false],
  ] as const)('%s', (_name, row, iat, expected) => {
    expect(acceptsToken(row, iat)).toBe(expected);
  });
});

describe('StaffTokens.verify', () => {
  it('returns the iat and exp of a token it signed', async () => {
    const tokens = new StaffTokens({ secret: 'a-test-secret-of-enough-length-000000', ttlSeconds: 600 });
    const verified = await tokens.verify((await tokens.sign(7)).accessToken);
    expect(verified).toMatchObject({ subject: '7', external: false });
    // Both from the clock, read twice: a second boundary may fall between.
    expect(verified!.expiresAt - verified!.issuedAt!).toBeGreaterThanOrEqual(600);
    expect(verified!.expiresAt - verified!.issuedAt!).toBeLessThanOrEqual(601);
  });
});
