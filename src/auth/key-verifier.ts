import { LRUCache } from 'lru-cache';
import type { Database } from '../db/database.js';
import { findKeyByHash, type KeyRecord } from './api-key-repository.js';
import type { InvalidationBus } from './invalidation-bus.js';
import { hashApiKey, parseApiKey } from './key-format.js';
import { ALL_PERMISSIONS, permissionsFor, staffScope, type KeyPrincipal } from './principal.js';

export type Verification =
  | { ok: true; principal: KeyPrincipal; expiresAt: Date | null }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired' };

/** The principal is built once per cache fill; requests share it read-only. */
interface CacheEntry { record: KeyRecord | null; principal: KeyPrincipal | null }

/**
 * Verifies raw API keys. A malformed key (bad prefix, length, alphabet or checksum) is refused with no I/O;
 * a well-formed one costs one indexed read on a cache miss and none on a hit. Cache entries live at most
 * `ttlMs` (≤ 5 s) and every invalidation on the bus empties the cache, so a revoked key or a changed staff
 * user is refused at once here and within the TTL everywhere even if a message is lost.
 */
export class KeyVerifier {
  private readonly cache: LRUCache<string, CacheEntry>;

  constructor(private readonly db: Database, ttlMs: number, private readonly bus: InvalidationBus) {
    this.cache = new LRUCache<string, CacheEntry>({
      max: 50_000,
      ttl: Math.max(ttlMs, 1),
      ttlAutopurge: false,
      fetchMethod: async (hash) => {
        const record = (await findKeyByHash(this.db, hash)) ?? null;
        return { record, principal: record && toPrincipal(record) };
      },
    });
    bus.subscribe(() => this.cache.clear());
  }

  async verify(rawKey: string, now = new Date()): Promise<Verification> {
    const type = parseApiKey(rawKey);
    if (!type) return { ok: false, reason: 'malformed' };
    const entry = await this.cache.fetch(hashApiKey(rawKey));
    const record = entry?.record;
    if (!entry || !record || record.type !== type) return { ok: false, reason: 'unknown' };
    if (!record.isActive || (record.type === 'personal' && !record.staffActive)) return { ok: false, reason: 'revoked' };
    if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    return { ok: true, principal: entry.principal!, expiresAt: record.expiresAt };
  }

  /** Drops cached keys here and on every other instance (after a revocation or a staff change). */
  invalidate(reason: string): Promise<void> {
    this.cache.clear();
    return this.bus.publish(reason);
  }
}

function toPrincipal(record: KeyRecord): KeyPrincipal {
  const base = { kind: 'apiKey' as const, keyId: record.id, keyType: record.type };
  if (record.type === 'personal') {
    return {
      ...base,
      ...staffScope(record.staffRole, record.staffBranchId, record.staffExchangeIds),
      staffUserId: record.staffUserId,
      permissions: permissionsFor(record.staffRole, record.staffPermissions),
    };
  }
  return {
    ...base,
    branchId: record.branchId,
    exchangeIds: null,
    staffUserId: null,
    permissions: new Set(record.type === 'branch' ? ALL_PERMISSIONS : []),
  };
}
