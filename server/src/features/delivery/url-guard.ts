import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { withTimeout } from '../../time-limit.js';

export const MAX_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 3000;

export type UrlProblemCode = 'invalidFormat' | 'credentialsNotAllowed' | 'blockedPort' | 'privateAddress';

/**
 * The Fetch Standard's bad ports (https://fetch.spec.whatwg.org/#bad-port), refused as browsers refuse them: a
 * POST to a mail, IRC or other service's port can smuggle that protocol's commands in its body (a partner's text
 * in an order goes into webhook bodies), making this service relay spam from its own address.
 */
const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export class UrlProblem extends Error {
  constructor(
    readonly code: UrlProblemCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The syntax rules of a webhook URL: absolute http(s), no credentials, no bad port, at most 2048 characters. */
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
  if (url.port !== '' && BAD_PORTS.has(Number(url.port))) {
    throw new UrlProblem(
      'blockedPort',
      `url must not use port ${url.port}: it belongs to another protocol (mail, IRC, …), as browsers also refuse`,
    );
  }
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
    : (
        await withTimeout(
          lookup(host, { all: true, verbatim: true }),
          DNS_TIMEOUT_MS,
          `DNS lookup of ${host} timed out`,
        )
      ).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (addresses.length === 0) throw new Error(`${host} did not resolve`);
  if (!allowPrivate && addresses.some((a) => isInternalAddress(a.address))) {
    throw new UrlProblem(
      'privateAddress',
      'url must not resolve to a loopback, private, link-local or otherwise internal address',
    );
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
