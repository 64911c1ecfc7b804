import { ApiKeyError } from './errors.js';

export const MAX_ALLOWED_ORIGINS = 20;
/** scheme://host[:port] and at most a trailing slash: no path, query, fragment or credentials. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\s]+\/?$/i;

/**
 * A key's allowed origins as browsers send them in `Origin` (lower-case host, punycode, no default port), without
 * duplicates; 400 naming the first value that is not an origin. Empty: any origin.
 */
export function normalizeOrigins(values: readonly string[]): string[] {
  const origins: string[] = [];
  for (const value of values) {
    const origin = toOrigin(value.trim());
    if (origin === null) throw ApiKeyError.notAnOrigin(value);
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

function toOrigin(value: string): string | null {
  if (!ORIGIN_SHAPE.test(value)) return null;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
