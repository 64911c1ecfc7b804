import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { withTimeout } from '../../time-limit.js';

export const MAX_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 3000;

export type UrlProblemCode = 'invalidFormat' | 'credentialsNotAllowed' | 'privateAddress';

export class UrlProblem extends Error {
  constructor(readonly code: UrlProblemCode, message: string) {
    super(message);
  }
}

export interface ResolvedAddress { address: string; family: 4 | 6 }

/** The syntax rules of a webhook URL: absolute http(s), no credentials, at most 2048 characters. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlProblem('invalidFormat', 'url must be a URL address');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || raw.length > MAX_URL_LENGTH) {
    throw new UrlProblem('invalidFormat', 'url must be a URL address');
  }
  if (url.username || url.password) throw new UrlProblem('credentialsNotAllowed', 'url must not contain credentials');
  return url;
}

/**
 * Anything but global unicast is internal: loopback, private, link-local (cloud metadata), CGNAT, unspecified,
 * multicast, reserved, unique-local, and IPv6 forms that embed an IPv4 address (mapped, compatible, 6to4, NAT64),
 * judged by the address they embed or refused outright.
 */
export function isInternalAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.parts.slice(0, 6).every((p) => p === 0)) return true;
  }
  return ip.range() !== 'unicast';
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The addresses a delivery may connect to. With private URLs refused, every address the name resolves to must
 * be public (a name that mixes in one internal address is refused whole). The caller connects only to these,
 * so a DNS answer that changes between this check and the connection cannot redirect the request.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  const host = hostOf(url);
  const family = isIP(host);
  const addresses: ResolvedAddress[] = family
    ? [{ address: host, family: family as 4 | 6 }]
    : (await withTimeout(lookup(host, { all: true, verbatim: true }), DNS_TIMEOUT_MS, `DNS lookup of ${host} timed out`))
      .map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (addresses.length === 0) throw new Error(`${host} did not resolve`);
  if (!allowPrivate && addresses.some((a) => isInternalAddress(a.address))) {
    throw new UrlProblem('privateAddress', 'url must not resolve to a loopback, private, link-local or otherwise internal address');
  }
  return addresses;
}

/**
 * The registration check. A name that does not resolve right now is accepted (DNS may be set up later or be
 * briefly down); the same check runs again before every attempt, so nothing internal is ever called.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = parseWebhookUrl(raw);
  if (allowPrivate) return url;
  try {
    await resolveTarget(url, false);
  } catch (err) {
    if (err instanceof UrlProblem) throw err;
  }
  return url;
}
