import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Config } from '../config.js';

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
    if (config.jwksUrl) this.jwks = createRemoteJWKSet(new URL(config.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  }

  async sign(staffUserId: number): Promise<{ accessToken: string; expiresIn: number }> {
    const accessToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(staffUserId))
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.config.ttlSeconds}s`)
      .sign(this.secret);
    return { accessToken, expiresIn: this.config.ttlSeconds };
  }

  /** The token's subject: a staff user id for local tokens; an id or an email for external ones. Null when invalid. */
  async verify(token: string): Promise<{ subject: string; external: boolean } | null> {
    const local = await verifyOrNull(() => jwtVerify(token, this.secret, { algorithms: ['HS256'], issuer: LOCAL_ISSUER, audience: LOCAL_AUDIENCE }));
    if (local?.sub) return { subject: local.sub, external: false };
    if (!this.jwks) return null;
    const external = await verifyOrNull(() => jwtVerify(token, this.jwks!, {
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
      issuer: this.config.issuer,
      audience: this.config.audience,
      // A token without an expiry would stay good for ever; the service's own always carry one.
      requiredClaims: ['exp'],
    }));
    return external?.sub ? { subject: external.sub, external: true } : null;
  }
}

async function verifyOrNull(verify: () => Promise<{ payload: JWTPayload }>): Promise<JWTPayload | null> {
  try {
    return (await verify()).payload;
  } catch {
    return null;
  }
}
