import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import { STAFF_PASSWORD, type World } from '../../helpers/world.js';

/** A password change, a deactivation and POST /auth/logout void the user's access tokens issued so far. */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const me = (token: string) => call(server, 'GET', '/auth/me', { token });
const login = async (email: string, password = STAFF_PASSWORD) => {
  const res = await call(server, 'POST', '/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.accessToken as string;
};
const cutoffOf = async (id: number) =>
  (
    await server.db
      .selectFrom('staff_users')
      .select('tokens_valid_after')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).tokens_valid_after;
const sign = (claims: { sub: number; iat?: number; exp?: number | null }) => {
  let jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.sub))
    .setIssuer('pxs')
    .setAudience('pxs-staff')
    .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000));
  if (claims.exp !== null) jwt = jwt.setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600);
  return jwt.sign(new TextEncoder().encode(server.config.jwt.secret));
};

describe('POST /auth/logout', () => {
  it('voids every token of the caller (204), here and on other devices; a new login works at once', async () => {
    const { id, email } = world.staff.operatorA;
    const other = await login(email);
    expect((await me(tokens.operatorA)).status).toBe(200);
    const res = await call(server, 'POST', '/auth/logout', { token: tokens.operatorA });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    for (const token of [tokens.operatorA, other]) {
      const refused = await me(token);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ statusCode: 401, message: 'Invalid or expired access token' });
      expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(401);
    }
    expect(await cutoffOf(id)).toBeInstanceOf(Date);
    // Very likely within the same second as the log out: the token must still work.
    const fresh = await login(email);
    expect((await me(fresh)).body.id).toBe(id);
    // Another user's tokens are not touched.
    expect((await me(tokens.operatorB)).status).toBe(200);
  });

  it("tells a token issued in the cutoff's second just after it from one issued just before", async () => {
    const { id } = world.staff.admin2;
    const before = await sign({ sub: id });
    expect((await call(server, 'POST', '/auth/logout', { token: tokens.admin2 })).status).toBe(204);
    const cutoff = (await cutoffOf(id))!;
    const second = Math.floor(cutoff.getTime() / 1000);
    // Issued by the service right after the cutoff (same millisecond second): gets the next second as iat.
    const after = (await server.ctx.tokens.sign(id, { cutoff, issuedAt: cutoff.getTime() + 1 })).accessToken;
    expect((await me(after)).status).toBe(200);
    for (const token of [before, await sign({ sub: id, iat: second }), await sign({ sub: id, iat: second - 1 })])
      expect((await me(token)).status).toBe(401);
    expect((await me(await sign({ sub: id, iat: second + 1 }))).status).toBe(200);
  });

  it('voids a token issued after the last cutoff with an iat ahead of the clock, when the user logs out again', async () => {
    const { id, email } = world.staff.admin2;
    // The last cutoff as another instance, its clock 3 s ahead, set it: tokens signed since carry an iat after its second.
    await server.db
      .updateTable('staff_users')
      .set({ tokens_valid_after: new Date(Date.now() + 3000) })
      .where('id', '=', id)
      .execute();
    const token = await login(email);
    expect((await me(token)).status).toBe(200);
    expect((await call(server, 'POST', '/auth/logout', { token })).status).toBe(204);
    expect((await me(token)).status).toBe(401);
    // And the next login works at once.
    expect((await me(await login(email))).status).toBe(200);
  });

  it('needs a valid staff token (401 without one, with an API key or with a voided token)', async () => {
    for (const options of [{}, { key: world.keys.branch }, { token: tokens.operatorA }]) {
      expect((await call(server, 'POST', '/auth/logout', options)).status).toBe(401);
    }
  });
});

describe('a password change', () => {
  it('voids the tokens issued before it; a login with the new password works', async () => {
    const { id, email } = world.staff.readOnlyA;
    const viaLogin = await login(email);
    const changed = await call(server, 'PATCH', `/admin/staff/${id}`, {
      token: tokens.admin1,
      body: { password: 'a-brand-new-password' },
    });
    expect(changed.status).toBe(200);
    for (const token of [tokens.readOnlyA, viaLogin]) expect((await me(token)).status).toBe(401);
    expect((await call(server, 'POST', '/auth/login', { body: { email, password: STAFF_PASSWORD } })).status).toBe(401);
    const fresh = await login(email, 'a-brand-new-password');
    expect((await me(fresh)).body.id).toBe(id);
    // The admin who changed it keeps its session.
    expect((await me(tokens.admin1)).status).toBe(200);
  });

  it('other changes of the user (role, exchanges, permissions) keep its tokens', async () => {
    const { id } = world.staff.operatorB;
    const res = await call(server, 'PATCH', `/admin/staff/${id}`, {
      token: tokens.admin1,
      body: { permissions: ['orders:read'] },
    });
    expect(res.status).toBe(200);
    expect(await cutoffOf(id)).toBeNull();
    expect((await me(tokens.operatorB)).status).toBe(200);
  });
});

describe('a deactivation', () => {
  it('voids the tokens for good: they stay refused after a reactivation', async () => {
    const { id, email } = world.staff.operatorB;
    const token = await sign({ sub: id, iat: Math.floor(Date.now() / 1000) - 5 });
    const patch = (isActive: boolean) =>
      call(server, 'PATCH', `/admin/staff/${id}`, { token: tokens.superadmin, body: { isActive } });
    expect((await patch(false)).status).toBe(200);
    expect((await me(token)).status).toBe(401);
    expect((await patch(true)).status).toBe(200);
    expect((await me(token)).status).toBe(401);
    expect((await me(await login(email))).status).toBe(200);
  });
});

describe('local tokens', () => {
  it('are refused without exp, even when otherwise valid', async () => {
    const id = world.staff.superadmin.id;
    expect((await me(await sign({ sub: id }))).status).toBe(200);
    const res = await me(await sign({ sub: id, exp: null }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid or expired access token');
  });
});
