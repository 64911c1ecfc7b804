import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

const ISSUER = 'https://staff-panel.example';
const AUDIENCE = 'partner-exchange';
let jwksServer: Server;
let jwksRequests = 0;
let server: TestServer;
let world: World;
let trusted: { privateKey: CryptoKey; publicKey: CryptoKey };
let stranger: { privateKey: CryptoKey; publicKey: CryptoKey };

beforeAll(async () => {
  trusted = await generateKeyPair('RS256');
  stranger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(trusted.publicKey)), kid: 'panel-1', alg: 'RS256', use: 'sig' };
  // The external staff panel's key set, served locally as the real panel would.
  jwksServer = createServer((req, res) => {
    jwksRequests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  ({ server, world } = await startWorld({
    env: { JWT_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE },
  }));
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

interface Claims {
  sub?: string;
  iss?: string;
  aud?: string;
  exp?: number;
  kid?: string;
}

function panelToken(claims: Claims, key: CryptoKey = trusted.privateKey) {
  return new SignJWT({ email: 'ignored@example' })
    .setProtectedHeader({ alg: 'RS256', kid: claims.kid ?? 'panel-1' })
    .setSubject(claims.sub ?? world.staff.admin1.email)
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(key);
}

const listKeys = (token: string) => call(server, 'GET', '/api-keys', { token });

describe('tokens of an external staff panel (JWT_JWKS_URL)', () => {
  it('accepts a token verified against the key set, mapping sub (an email) to the staff user', async () => {
    const token = await panelToken({});
    const created = await call(server, 'POST', '/api-keys', {
      token,
      body: { name: 'from the panel', type: 'personal' },
    });
    expect(created.status).toBe(201);
    const res = await listKeys(token);
    expect(res.status).toBe(200);
    expect(res.body.map((k: { name: string }) => k.name)).toContain('from the panel');
    expect(jwksRequests).toBeGreaterThan(0);
  });

  it('maps a numeric sub to the staff user id', async () => {
    const res = await listKeys(await panelToken({ sub: String(world.staff.operatorA.id) }));
    expect(res.status).toBe(200);
  });

  it('applies the role of the mapped staff user', async () => {
    const token = await panelToken({ sub: world.staff.operatorA.email });
    const res = await call(server, 'POST', '/api-keys', {
      token,
      body: { name: 'x', type: 'branch', branchId: world.branches.b1 },
    });
    expect(res.status).toBe(403);
  });

  it.each<[string, () => Promise<string>]>([
    ['from the wrong issuer', () => panelToken({ iss: 'https://evil.example' })],
    ['for the wrong audience', () => panelToken({ aud: 'another-api' })],
    ['signed with a key outside the set', () => panelToken({}, stranger.privateKey)],
    ['signed with an unknown kid', () => panelToken({ kid: 'panel-2' }, stranger.privateKey)],
    ['expired', () => panelToken({ exp: Math.floor(Date.now() / 1000) - 30 })],
    [
      'without an expiry',
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'RS256', kid: 'panel-1' })
          .setSubject(world.staff.admin1.email)
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setIssuedAt()
          .sign(trusted.privateKey),
    ],
    ['for an unknown staff email', () => panelToken({ sub: 'nobody@test.local' })],
    [
      'unsigned (alg: none)',
      async () => {
        const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
        return `${b64({ alg: 'none', kid: 'panel-1' })}.${b64({ sub: world.staff.superadmin.email, iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })}.`;
      },
    ],
    [
      "HS256 keyed with the panel's public key (algorithm confusion)",
      async () => {
        const pem = await exportSPKI(trusted.publicKey);
        return new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: 'panel-1' })
          .setSubject(world.staff.superadmin.email)
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('10m')
          .sign(new TextEncoder().encode(pem));
      },
    ],
  ])('refuses a token %s with 401', async (_name, make) => {
    const res = await listKeys(await make());
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid or expired access token');
  });

  it('refuses the token of a deactivated staff user', async () => {
    const token = await panelToken({ sub: world.staff.operatorB.email });
    expect((await listKeys(token)).status).toBe(200);
    await server.db
      .updateTable('staff_users')
      .set({ is_active: false })
      .where('id', '=', world.staff.operatorB.id)
      .execute();
    expect((await listKeys(token)).status).toBe(401);
  });

  it("applies the user's token cutoff to the panel's tokens by their iat: a log out voids those issued up to its second", async () => {
    const sub = world.staff.admin2.email;
    const before = await panelToken({ sub });
    const noIat = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'panel-1' })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('10m')
      .sign(trusted.privateKey);
    expect((await listKeys(noIat)).status).toBe(200);
    expect((await call(server, 'POST', '/auth/logout', { token: before })).status).toBe(204);
    for (const token of [before, noIat]) expect((await listKeys(token)).status).toBe(401);
    const cutoff = (
      await server.db
        .selectFrom('staff_users')
        .select('tokens_valid_after')
        .where('id', '=', world.staff.admin2.id)
        .executeTakeFirstOrThrow()
    ).tokens_valid_after!;
    const next = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'panel-1' })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(cutoff.getTime() / 1000) + 1)
      .setExpirationTime('10m')
      .sign(trusted.privateKey);
    expect((await listKeys(next)).status).toBe(200);
  });

  it("still accepts the service's own tokens", async () => {
    const { accessToken } = await server.ctx.tokens.sign(world.staff.superadmin.id);
    expect((await listKeys(accessToken)).status).toBe(200);
  });
});
