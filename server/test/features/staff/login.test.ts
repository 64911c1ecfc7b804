import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import { STAFF_PASSWORD, type World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

const SECRET = 'test-secret-test-secret-test-secret-0123456789';
let server: TestServer;
let world: World;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

const login = (email: string, password: string, headers?: Record<string, string>) =>
  call(server, 'POST', '/auth/login', { body: { email, password }, headers });

describe('POST /auth/login', () => {
  it('returns a bearer token that opens the staff API', async () => {
    const res = await login(world.staff.admin1.email, STAFF_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 3600 });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const keys = await call(server, 'GET', '/api-keys', { token: res.body.accessToken });
    expect(keys.status).toBe(200);
  });

  it('matches the email case-insensitively', async () => {
    const res = await login('  Admin1@TEST.local ', STAFF_PASSWORD);
    expect(res.status).toBe(200);
  });

  it('gives the same 401 for an unknown email, a wrong password and an inactive user', async () => {
    await server.db
      .insertInto('staff_users')
      .values({
        email: 'gone@test.local',
        password_hash: (
          await server.db
            .selectFrom('staff_users')
            .select('password_hash')
            .where('id', '=', world.staff.admin1.id)
            .executeTakeFirstOrThrow()
        ).password_hash,
        role: 'admin',
        branch_id: world.branches.b1,
        is_active: false,
        updated_at: new Date(),
      })
      .execute();
    const expected = { statusCode: 401, message: 'Invalid credentials', error: 'Unauthorized' };
    for (const [email, password] of [
      ['nobody@test.local', STAFF_PASSWORD],
      [world.staff.admin1.email, 'wrong-password-123'],
      ['gone@test.local', STAFF_PASSWORD],
    ]) {
      const res = await login(email, password);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(expected);
    }
  });

  it('validates the body', async () => {
    const res = await call(server, 'POST', '/auth/login', { body: { email: world.staff.admin1.email } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ password: 'required' });
  });
});

describe('staff tokens', () => {
  const sign = (claims: { sub?: string; iss?: string; aud?: string; exp?: number }, secret = SECRET) => {
    let jwt = new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setSubject(claims.sub ?? String(world.staff.superadmin.id))
      .setIssuer(claims.iss ?? 'pxs')
      .setAudience(claims.aud ?? 'pxs-staff');
    jwt = jwt.setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600);
    return jwt.sign(new TextEncoder().encode(secret));
  };
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

  it('accepts a token signed with JWT_SECRET for the service', async () => {
    expect((await call(server, 'GET', '/api-keys', { token: await sign({}) })).status).toBe(200);
  });

  it.each([
    ['expired', () => sign({ exp: Math.floor(Date.now() / 1000) - 60 })],
    ['forged (another secret)', () => sign({}, 'another-secret-another-secret-another-secret')],
    ['wrong issuer', () => sign({ iss: 'someone-else' })],
    ['wrong audience', () => sign({ aud: 'another-service' })],
    [
      'alg: none',
      async () =>
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: String(world.staff.superadmin.id), iss: 'pxs', aud: 'pxs-staff', exp: Math.floor(Date.now() / 1000) + 600 })}.`,
    ],
    ['of a user that does not exist', () => sign({ sub: '999999' })],
    ['garbage', async () => 'not-a-jwt'],
    ['an API key', async () => world.keys.branch],
  ])('refuses a token that is %s with 401', async (_name, make) => {
    const res = await call(server, 'GET', '/api-keys', { token: await make() });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: 'Invalid or expired access token' });
  });

  it('refuses a request without a token', async () => {
    const res = await call(server, 'GET', '/api-keys');
    expect(res.status).toBe(401);
  });

  it('stops accepting the token of a deactivated user on its next request', async () => {
    const token = await sign({ sub: String(world.staff.operatorB.id) });
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(200);
    await server.db
      .updateTable('staff_users')
      .set({ is_active: false })
      .where('id', '=', world.staff.operatorB.id)
      .execute();
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(401);
    await server.db
      .updateTable('staff_users')
      .set({ is_active: true })
      .where('id', '=', world.staff.operatorB.id)
      .execute();
  });
});

// Every login hashes a password with scrypt (32 MiB): on a loaded machine a few dozen take longer than the default timeout.
const SLOW = { timeout: 180_000 };

describe('login throttling', SLOW, () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({
      env: { LOGIN_FAILURES_PER_ACCOUNT: '3', LOGIN_FAILURES_PER_IP: '5', TRUST_PROXY: 'true' },
      database: server.database,
    });
  }, 180_000);
  afterAll(() => limited?.close(), 180_000);

  // Each test uses its own client address and account, so the budgets of one test never reach another.
  const ip = () => `10.${randomBytes(3).join('.')}`;
  const attempt = (email: string, password: string, from: string) =>
    call(limited, 'POST', '/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': from } });

  it('limits the failures on one account, from any address, with 429 and Retry-After', async () => {
    const email = world.staff.operatorA.email;
    for (let i = 0; i < 3; i++) expect((await attempt(email, 'wrong-password-123', ip())).status).toBe(401);
    // The account's counter is kept under a hash of the address: Redis's KEYS or MONITOR shows no one's email.
    if (limited.ctx.redis) {
      const names = await limited.ctx.redis.keys(`${limited.config.redisKeyPrefix}*login-account*`);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => n.includes(email.split('@')[0]!))).toEqual([]);
    }
    const res = await attempt(email, STAFF_PASSWORD, ip());
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ statusCode: 429, message: 'Rate limit exceeded', retryAfter: expect.any(Number) });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('limits the failures from one address across accounts', async () => {
    const from = ip();
    for (const email of ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test'])
      expect((await attempt(email, 'wrong-password-123', from)).status).toBe(401);
    expect((await attempt(world.staff.readOnlyA.email, STAFF_PASSWORD, from)).status).toBe(429);
    expect((await attempt(world.staff.readOnlyA.email, STAFF_PASSWORD, ip())).status).toBe(200);
  });

  it('counts the address the proxy saw, not the ones the client wrote before it', async () => {
    // TRUST_PROXY=true is one proxy: it appends the address it saw; whatever precedes that is the client's say.
    const from = ip();
    for (let i = 0; i < 5; i++)
      expect((await attempt(`spoof${i}@x.test`, 'wrong-password-123', `${ip()}, ${from}`)).status).toBe(401);
    expect((await attempt('spoof@x.test', 'wrong-password-123', `${ip()}, ${from}`)).status).toBe(429);
  });

  it('counts no successful login against the address', async () => {
    const from = ip();
    for (let i = 0; i < 12; i++)
      expect((await attempt(world.staff.readOnlyA.email, STAFF_PASSWORD, from)).status).toBe(200);
    // Five failures still fit: the twelve successes spent nothing.
    for (let i = 0; i < 5; i++)
      expect((await attempt(`nobody${i}@x.test`, 'wrong-password-123', from)).status).toBe(401);
    expect((await attempt('nobody@x.test', 'wrong-password-123', from)).status).toBe(429);
  });

  it("clears an account's failures on success, so typos do not lock its owner out", async () => {
    const email = world.staff.admin2.email;
    for (let round = 0; round < 3; round++) {
      expect((await attempt(email, 'wrong-password-123', ip())).status).toBe(401);
      expect((await attempt(email, 'wrong-password-456', ip())).status).toBe(401);
      expect((await attempt(email, STAFF_PASSWORD, ip())).status).toBe(200);
    }
  });
});

describe('login limits at their defaults (10 failures per account, 100 per address, per 15 minutes)', SLOW, () => {
  let office: TestServer;
  let hash: string;
  beforeAll(async () => {
    // Empty values are unset: the server runs with the configured defaults, not the test helper's high limits.
    office = await startTestServer({
      env: { LOGIN_FAILURES_PER_ACCOUNT: '', LOGIN_FAILURES_PER_IP: '' },
      database: server.database,
    });
    hash = (
      await server.db
        .selectFrom('staff_users')
        .select('password_hash')
        .where('id', '=', world.staff.admin1.id)
        .executeTakeFirstOrThrow()
    ).password_hash;
  }, 180_000);
  afterAll(() => office?.close(), 180_000);

  it('lets 30 cashiers of one office log in from one address at the start of a shift', async () => {
    const emails = Array.from({ length: 30 }, (_, i) => `cashier${i}-${randomBytes(3).toString('hex')}@office.test`);
    await server.db
      .insertInto('staff_users')
      .values(
        emails.map((email) => ({
          email,
          password_hash: hash,
          role: 'operator' as const,
          branch_id: world.branches.b1,
          updated_at: new Date(),
        })),
      )
      .execute();
    const answers = [];
    for (const email of emails)
      answers.push((await call(office, 'POST', '/auth/login', { body: { email, password: STAFF_PASSWORD } })).status);
    expect(answers).toEqual(emails.map(() => 200));
  });

  it('answers 429 to the eleventh wrong password for one account, even with the right password', async () => {
    const email = world.staff.operatorB.email;
    const answers = [];
    for (let i = 0; i < 11; i++)
      answers.push(
        (await call(office, 'POST', '/auth/login', { body: { email, password: `wrong-password-${i}` } })).status,
      );
    expect(answers).toEqual([...Array(10).fill(401), 429]);
    const right = await call(office, 'POST', '/auth/login', { body: { email, password: STAFF_PASSWORD } });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // Another account from the same address is not affected.
    expect(
      (
        await call(office, 'POST', '/auth/login', {
          body: { email: world.staff.admin1.email, password: STAFF_PASSWORD },
        })
      ).status,
    ).toBe(200);
  });
});
