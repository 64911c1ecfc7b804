import { hash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ApiKeyType } from '../db/schema.js';

/**
 * Key format: prefix + 32 characters of [A-Za-z0-9]: 26 random, then a 6-character base62 CRC32 of
 * prefix + random part (GitHub's token scheme). A mistyped or invented key fails the checksum and is refused
 * without a database read; the fixed prefixes let secret scanners recognise leaked keys.
 */
export const KEY_PREFIXES: Record<ApiKeyType, string> = {
  personal: 'sk_personal_',
  branch: 'sk_branch_',
  public: 'pk_',
};

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const RANDOM_LENGTH = BODY_LENGTH - CHECKSUM_LENGTH;
const DISPLAY_PREFIX_LENGTH = 20;
const BODY_PATTERN = /^[A-Za-z0-9]{32}$/;

export function generateApiKey(type: ApiKeyType): string {
  const prefix = KEY_PREFIXES[type];
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  return prefix + random + checksum(prefix + random);
}

/** The key's type when it is well-formed and its checksum matches; otherwise null. */
export function parseApiKey(raw: string): ApiKeyType | null {
  for (const [type, prefix] of Object.entries(KEY_PREFIXES) as [ApiKeyType, string][]) {
    if (!raw.startsWith(prefix)) continue;
    const body = raw.slice(prefix.length);
    if (!BODY_PATTERN.test(body)) return null;
    const random = body.slice(0, RANDOM_LENGTH);
    return checksum(prefix + random) === body.slice(RANDOM_LENGTH) ? type : null;
  }
  return null;
}

/**
 * Keys carry ~154 random bits, so a fast unsalted hash is enough and keeps lookup to one indexed read. The one-shot
 * `hash` runs on every request: a `Hash` object per call cost 4-5 µs of the request path.
 */
export function hashApiKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

export function displayPrefix(raw: string): string {
  return raw.slice(0, DISPLAY_PREFIX_LENGTH);
}

function checksum(text: string): string {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % ALPHABET.length] + out;
    value = Math.floor(value / ALPHABET.length);
  }
  return out;
}
