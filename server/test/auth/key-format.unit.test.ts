import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, KEY_PREFIXES, parseApiKey } from '../../src/auth/key-format.js';
import { KeyVerifier } from '../../src/auth/key-verifier.js';
import { localBus } from '../../src/auth/invalidation-bus.js';

describe('API key format', () => {
  it.each(['personal', 'branch', 'public'] as const)(
    'generates %s keys of prefix + 32 [A-Za-z0-9] with a valid checksum',
    (type) => {
      const key = generateApiKey(type);
      expect(key.startsWith(KEY_PREFIXES[type])).toBe(true);
      expect(key.slice(KEY_PREFIXES[type].length)).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(parseApiKey(key)).toBe(type);
      expect(displayPrefix(key)).toBe(key.slice(0, 20));
    },
  );

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('branch')));
    expect(keys.size).toBe(1000);
  });

  it('refuses a key with one character changed, a wrong length, a foreign alphabet or an unknown prefix', () => {
    const key = generateApiKey('branch');
    const last = key.at(-1)!;
    const typo = key.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    expect(parseApiKey(typo)).toBeNull();
    const swapped = key.slice(0, 12) + key[13] + key[12] + key.slice(14);
    if (swapped !== key) expect(parseApiKey(swapped)).toBeNull();
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${key}0`)).toBeNull();
    expect(parseApiKey(key.replace('sk_branch_', 'sk_personal_'))).toBeNull();
    expect(parseApiKey(`sk_branch_${'-'.repeat(32)}`)).toBeNull();
    expect(parseApiKey(`xx_${'a'.repeat(32)}`)).toBeNull();
    expect(parseApiKey('')).toBeNull();
  });

  it('hashes with SHA-256 (hex)', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('KeyVerifier', () => {
  it('refuses a malformed key at once, without touching the database', () => {
    const verifier = new KeyVerifier(
      async () => {
        throw new Error('database touched');
      },
      5000,
      localBus(),
    );
    const key = generateApiKey('public');
    expect(verifier.verify(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifier.verify('sk_branch_madeupmadeupmadeupmadeupmade')).toEqual({ ok: false, reason: 'malformed' });
  });

  it('reads a key once, then answers from the cache at once (no promise), until an invalidation', async () => {
    const key = generateApiKey('branch');
    let reads = 0;
    const record = {
      id: 'k1',
      type: 'branch' as const,
      branchId: 1,
      isActive: true,
      expiresAt: null,
      staffUserId: 1,
      staffActive: true,
      staffRole: 'admin' as const,
      staffBranchId: 1,
      staffPermissions: [],
      staffExchangeIds: [],
      allowedOrigins: [],
    };
    const verifier = new KeyVerifier(
      async () => {
        reads++;
        return record;
      },
      5000,
      localBus(),
    );
    const first = verifier.verify(key);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ ok: true, principal: { keyId: 'k1', branchId: 1 } });
    const hit = verifier.verify(key);
    expect(hit).not.toBeInstanceOf(Promise);
    expect(hit).toMatchObject({ ok: true, principal: { keyId: 'k1' } });
    expect(reads).toBe(1);
    await verifier.invalidate('test');
    expect(verifier.verify(key)).toBeInstanceOf(Promise);
  });
});
