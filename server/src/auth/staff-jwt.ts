import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Config } from '../config/config.js';

const LOCAL_ISSUER = 'pxs';
const LOCAL_AUDIENCE = 'pxs-staff';

/**
 * Staff access tokens: HS256 tokens the service signs with JWT_SECRET, and, with JWT_JWKS_URL, tokens of an
 * external staff panel verified against its key set (JWT_ISSUER / JWT_AUDIENCE). Algorithms are pinned, so
 * `alg: none` and algorithm confusion are refused by jose.
 */
export class StaffTokens {
  private readonly secret: Uint8Array;
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly config: Config['jwt']) {
    this.secret = new TextEncoder().encode(config.secret);
    if (config.jwksUrl)
      this.jwks = createRemoteJWKSet(new URL(config.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  }

  /**
   * A token for the staff user. `cutoff` is the user's tokens_valid_after and `issuedAt` when its row was read
   * (ms): a token is no newer than the data it was issued from, so a login that read the user before a password
   * change committed cannot outlive it by taking a later iat.
   */
  async sign(
    staffUserId: number,
    { cutoff = null, issuedAt = Date.now() }: { cutoff?: Date | null; issuedAt?: number } = {},
  ): Promise<{ accessToken: string; expiresIn: number }> {
    const accessToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(staffUserId))
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setIssuedAt(issuedAtAfter(cutoff, issuedAt))
      .setExpirationTime(`${this.config.ttlSeconds}s`)
      .sign(this.secret);
    return { accessToken, expiresIn: this.config.ttlSeconds };
  }

  /** The token's claims (see VerifiedToken); null when invalid. */
  async verify(token: string): Promise<VerifiedToken | null> {
    const local = await verifyOrNull(() =>
      jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: LOCAL_ISSUER,
        audience: LOCAL_AUDIENCE,
        requiredClaims: ['exp'],
      }),
    );
    const fromLocal = local && claimsOf(local, false);
    if (fromLocal) return fromLocal;
    if (!this.jwks) return null;
    const external = await verifyOrNull(() =>
      jwtVerify(token, this.jwks!, {
        algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
        issuer: this.config.issuer,
        audience: this.config.audience,
        // A token without an expiry would stay good for ever; the service's own always carry one.
        requiredClaims: ['exp'],
      }),
    );
    return external && claimsOf(external, true);
  }
}

/** What a valid staff token says. Times are the JWT's, in whole seconds since the epoch. */
export interface VerifiedToken {
  /** A staff user id for local tokens; an id or an email for external ones. */
  subject: string;
  external: boolean;
  /** iat; null without one (void once the user has a cutoff). */
  issuedAt: number | null;
  /** exp: both verifications require it. */
  expiresAt: number;
}

function claimsOf(payload: JWTPayload, external: boolean): VerifiedToken | null {
  // jose has refused a token without exp already; the check only spares a cast.
  if (!payload.sub || payload.exp === undefined) return null;
  return { subject: payload.sub, external, issuedAt: payload.iat ?? null, expiresAt: payload.exp };
}

/*
 * A staff user's tokens_valid_after (ms precision) against a JWT's iat (whole seconds, rounded down by every
 * signer). A token is void when iat * 1000 <= cutoff, i.e. iat is in the cutoff's second or before: every token
 * issued before the cutoff is refused. The cutoff's own second is ambiguous (iat cannot tell before from after),
 * so the service never issues into it: a token signed for a user with a cutoff gets an iat of at least the next
 * second (at most a second ahead of the clock; jose checks a future iat only with maxTokenAge, unused here), and a
 * login in the same second just after a log out works. A token without iat is void once there is a cutoff.
 */

/** Whether a token issued at `iat` (seconds) is void by the user's cutoff. */
export function voidedBy(iat: number | null, cutoff: Date | null): boolean {
  return cutoff !== null && (iat ?? 0) * 1000 <= cutoff.getTime();
}

/**
 * Whether the staff user, as just read, still accepts its token issued at `iat` (seconds): it exists, is active,
 * and no cutoff (log out, password change) voids the token. Authentication and the order stream's recheck both ask.
 */
export function acceptsToken<U extends { is_active: boolean; tokens_valid_after: Date | null }>(
  user: U | undefined,
  iat: number | null,
): user is U {
  return user !== undefined && user.is_active && !voidedBy(iat, user.tokens_valid_after);
}

/** The iat (seconds) of a token issued at `now` (ms) to a user with `cutoff`: never in or before the cutoff's second. */
export function issuedAtAfter(cutoff: Date | null, now: number): number {
  const iat = Math.floor(now / 1000);
  return cutoff === null ? iat : Math.max(iat, Math.floor(cutoff.getTime() / 1000) + 1);
}

async function verifyOrNull(verify: () => Promise<{ payload: JWTPayload }>): Promise<JWTPayload | null> {
  try {
    return (await verify()).payload;
  } catch {
    return null;
  }
}
