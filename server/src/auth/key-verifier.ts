import { LRUCache } from 'lru-cache';
import type { ApiKeyType, Permission, StaffRole } from '../db/schema.js';
import type { InvalidationBus } from './invalidation-bus.js';
import { hashApiKey, parseApiKey } from './key-format.js';
import { ALL_PERMISSIONS, permissionsFor, staffScope, type KeyPrincipal } from './principal.js';

/** Everything needed to authorise a request with a key: the key and, for a personal key, its staff user. */
export interface KeyRecord {
  id: string;
  type: ApiKeyType;
  branchId: number | null;
  isActive: boolean;
  expiresAt: Date | null;
  staffUserId: number;
  staffActive: boolean;
  staffRole: StaffRole;
  staffBranchId: number | null;
  staffPermissions: Permission[];
  staffExchangeIds: number[];
  /** A public key's allowed web origins; empty: any. */
  allowedOrigins: string[];
}

/** Reads the key with this SHA-256 hash (api-keys' repository, wired in context.ts). */
export type KeyLookup = (keyHash: string) => Promise<KeyRecord | undefined>;

export type Verification =
  | { ok: true; principal: KeyPrincipal; expiresAt: Date | null }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired' };

const MALFORMED: Verification = Object.freeze({ ok: false, reason: 'malformed' });
const UNKNOWN: Verification = Object.freeze({ ok: false, reason: 'unknown' });
const REVOKED: Verification = Object.freeze({ ok: false, reason: 'revoked' });
const EXPIRED: Verification = Object.freeze({ ok: false, reason: 'expired' });

/** The principal is built once per cache fill; requests share it read-only. */
interface CacheEntry {
  record: KeyRecord | null;
  principal: KeyPrincipal | null;
}

/**
 * Verifies raw API keys. A malformed key (bad prefix, length, alphabet or checksum) is refused with no I/O;
 * a well-formed one costs one indexed read on a cache miss and none on a hit. Cache entries live at most
 * `ttlMs` (≤ 5 s) and every invalidation on the bus empties the cache, so a revoked key or a changed staff
 * user is refused at once here and within the TTL everywhere even if a message is lost.
 */
export class KeyVerifier {
  private readonly cache: LRUCache<string, CacheEntry>;
  /** Reads under way, shared by the requests that need the same key meanwhile. */
  private readonly reading = new Map<string, Promise<CacheEntry>>();
  /** Counts invalidations, so that a read overtaken by one is neither trusted nor kept. */
  private generation = 0;

  constructor(
    private readonly lookupKey: KeyLookup,
    ttlMs: number,
    private readonly bus: InvalidationBus,
  ) {
    // ttlResolution 0 reads the clock on each lookup: the default (1 ms) arms a timer each millisecond under load to
    // reuse a reading, which cost more per request than reading the clock.
    this.cache = new LRUCache<string, CacheEntry>({
      max: 50_000,
      ttl: Math.max(ttlMs, 1),
      ttlAutopurge: false,
      ttlResolution: 0,
    });
    bus.subscribe(() => this.forget());
  }

  /**
   * The key's verdict: at once from the cache or for a malformed key, a promise of it when the key must be read.
   * Answering a hit without a promise spares every partner request a turn of the microtask queue.
   */
  verify(rawKey: string, now = Date.now()): Verification | Promise<Verification> {
    const hash = hashApiKey(rawKey);
    // Only well-formed keys are ever cached, and a hash names one key: a hit needs no format check.
    const entry = this.cache.get(hash);
    if (entry) return verdict(entry, now);
    const type = parseApiKey(rawKey);
    if (!type) return MALFORMED;
    return this.lookup(hash, type).then((read) => verdict(read, now));
  }

  /** How often the cache was emptied, here or by another instance's message: shows that a message arrived. */
  get invalidations(): number {
    return this.generation;
  }

  /** Drops cached keys here and on every other instance (after a revocation or a staff change). */
  invalidate(reason: string): Promise<void> {
    this.forget();
    return this.bus.publish(reason);
  }

  private forget(): void {
    this.generation++;
    this.cache.clear();
    this.reading.clear();
  }

  /**
   * The cached entry, or one indexed read. A read that an invalidation overtook may predate the change (a
   * revocation arriving over Redis mid-read), so it is made again; after three such reads in a row, the last
   * one answers without being cached.
   */
  private async lookup(hash: string, type: ApiKeyType): Promise<CacheEntry> {
    for (let attempt = 1; ; attempt++) {
      const cached = this.cache.get(hash);
      if (cached) return cached;
      const generation = this.generation;
      const entry = await (this.reading.get(hash) ?? this.read(hash, type));
      if (generation === this.generation) {
        this.cache.set(hash, entry);
        return entry;
      }
      if (attempt === 3) return entry;
    }
  }

  /**
   * One read of a key, registered so that requests for the same key meanwhile wait for it. A record of another
   * type than the key's prefix says is cached as unknown.
   */
  private read(hash: string, type: ApiKeyType): Promise<CacheEntry> {
    const read = this.lookupKey(hash).then((found) => {
      const record = found && found.type === type ? found : null;
      return { record, principal: record && toPrincipal(record) };
    });
    this.reading.set(hash, read);
    const done = () => {
      if (this.reading.get(hash) === read) this.reading.delete(hash);
    };
    read.then(done, done);
    return read;
  }
}

function verdict({ record, principal }: CacheEntry, now: number): Verification {
  if (!record) return UNKNOWN;
  if (!record.isActive || (record.type === 'personal' && !record.staffActive)) return REVOKED;
  if (record.expiresAt && record.expiresAt.getTime() <= now) return EXPIRED;
  return { ok: true, principal: principal!, expiresAt: record.expiresAt };
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
    ...(record.type === 'public' && record.allowedOrigins.length > 0
      ? { allowedOrigins: new Set(record.allowedOrigins) }
      : {}),
  };
}
