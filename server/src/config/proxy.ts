import { isIP } from 'node:net';

/** How Fastify finds a request's client address behind proxies: the hops (hop 0 is the socket's peer) or addresses it trusts. */
export type TrustProxy = false | string | ((address: string, hop: number) => boolean);

const HOPS = /^[0-9]{1,2}$/;

/**
 * TRUST_PROXY: `false`; `true` or a number of proxies in front (each appends the address it saw to
 * X-Forwarded-For, so the client is that many entries from the end); or the proxies' addresses or CIDR ranges,
 * comma-separated. `true` is one proxy, not "trust every hop": with that, the client address was the left-most
 * X-Forwarded-For entry, which the client writes itself, and a new one on each request slipped past every per-IP
 * budget (login failures, unauthenticated calls) and into the audit log.
 */
export function trustProxyOf(value: string): TrustProxy | Error {
  if (value === 'false' || value === '0') return false;
  if (value === 'true' || HOPS.test(value)) {
    const proxies = value === 'true' ? 1 : Number(value);
    return (_address, hop) => hop < proxies;
  }
  const entries = value.split(',').map((e) => e.trim());
  if (entries.every(isAddressOrRange)) return entries.join(',');
  return new Error(
    'TRUST_PROXY: must be true, false, the number of proxies in front (1-99), or their addresses or CIDR ranges, comma-separated',
  );
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
