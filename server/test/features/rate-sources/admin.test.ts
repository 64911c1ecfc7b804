import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown, who: StaffName = 'admin1') =>
  call(server, method, path, { token: tokens[who], body });

let named = 0;
const create = (body: Record<string, unknown> = {}, who: StaffName = 'admin1') =>
  admin(
    'POST',
    '/admin/rate-sources',
    { name: `Source ${++named}`, kind: 'ecb', url: 'https://rates.example/eurofxref-daily.xml', ...body },
    who,
  );

describe('POST /admin/rate-sources', () => {
  it("creates a source in the admin's branch with the default interval and age, due at once", async () => {
    const res = await create({ name: 'ECB daily' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      branchId: world.branches.b1,
      name: 'ECB daily',
      kind: 'ecb',
      url: 'https://rates.example/eurofxref-daily.xml',
      intervalSeconds: 60,
      maxAgeSeconds: 300,
      lastSuccessAt: null,
      lastError: null,
      lastErrorAt: null,
      isStale: false,
      nextPollAt: expect.any(String),
      pairs: [],
      offers: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(Date.parse(res.body.nextPollAt)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('takes every kind and the given interval and age', async () => {
    for (const kind of ['ecb', 'cbr', 'binance', 'json']) {
      const res = await create({ kind, intervalSeconds: 1, maxAgeSeconds: 86400 });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ kind, intervalSeconds: 1, maxAgeSeconds: 86400 });
    }
  });

  it.each([
    [{ kind: 'yahoo' }, 'kind'],
    [{ intervalSeconds: 0 }, 'intervalSeconds'],
    [{ intervalSeconds: 86401 }, 'intervalSeconds'],
    [{ intervalSeconds: 1.5 }, 'intervalSeconds'],
    [{ maxAgeSeconds: 0 }, 'maxAgeSeconds'],
    [{ name: '   ' }, 'name'],
    [{ url: '' }, 'url'],
    [{ extra: true }, 'extra'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(400);
    expect(Object.keys(res.body.errors ?? {})).toContain(field);
  });

  it.each([
    ['ftp://rates.example/x', 'invalidFormat'],
    ['not a url', 'invalidFormat'],
    ['https://user:pw@rates.example/x', 'credentialsNotAllowed'],
    ['http://rates.example:25/x', 'blockedPort'],
  ])('refuses the URL %s as a webhook URL is refused (%s)', async (url, code) => {
    const res = await create({ url });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ url: code });
  });

  it('refuses a name already used in the branch, not one used in another branch', async () => {
    expect((await create({ name: 'Twice' })).status).toBe(201);
    const again = await create({ name: 'Twice' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ errors: { name: 'alreadyExists' } });
    const elsewhere = await create({ name: 'Twice', branchId: world.branches.b2 }, 'superadmin');
    expect(elsewhere.status, elsewhere.text).toBe(201);
    expect(elsewhere.body.branchId).toBe(world.branches.b2);
  });

  it('needs a branchId from a superadmin; an admin naming another branch gets branchId notFound', async () => {
    const res = await create({}, 'superadmin');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ branchId: 'required' });
    const other = await create({ branchId: world.branches.b2 });
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual({ branchId: 'notFound' });
  });

  it('is for admins: an operator gets 403, no token 401', async () => {
    expect((await create({}, 'operatorA')).status).toBe(403);
    const anonymous = await call(server, 'POST', '/admin/rate-sources', {
      body: { name: 'x', kind: 'ecb', url: 'https://rates.example/' },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('GET, PATCH and DELETE /admin/rate-sources/{id}', () => {
  it('lists the branch’s sources only; a superadmin sees every branch and can filter', async () => {
    const mine = (await create()).body.id as number;
    const theirs = (await create({ branchId: world.branches.b2 }, 'superadmin')).body.id as number;
    const list = await admin('GET', '/admin/rate-sources', undefined);
    expect(list.status).toBe(200);
    const ids = list.body.data.map((s: { id: number }) => s.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect(list.body.meta).toMatchObject({ total: ids.length, skip: 0 });
    const all = await call(server, 'GET', '/admin/rate-sources', {
      token: tokens.superadmin,
      query: { filter: JSON.stringify({ branchId: world.branches.b2 }), limit: 100 },
    });
    expect(all.body.data.map((s: { id: number }) => s.id)).toContain(theirs);
    expect(all.body.data.every((s: { branchId: number }) => s.branchId === world.branches.b2)).toBe(true);
  });

  it("reads one; another branch's is 404 for an admin, as an unknown id", async () => {
    const theirs = (await create({ branchId: world.branches.b2 }, 'superadmin')).body.id as number;
    expect((await admin('GET', `/admin/rate-sources/${theirs}`)).status).toBe(404);
    expect((await admin('GET', `/admin/rate-sources/${theirs}`, undefined, 'superadmin')).status).toBe(200);
    const missing = await admin('GET', '/admin/rate-sources/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, error: 'Not Found', errors: { rateSource: 'notFound' } });
    expect((await admin('PATCH', `/admin/rate-sources/${theirs}`, { name: 'mine now' })).status).toBe(404);
    expect((await admin('DELETE', `/admin/rate-sources/${theirs}`)).status).toBe(404);
    expect((await admin('GET', `/admin/rate-sources/${theirs}`, undefined, 'superadmin')).body.name).not.toBe(
      'mine now',
    );
  });

  it('changes what is given and keeps the rest; a new url is read at once', async () => {
    const created = (await create({ intervalSeconds: 3600 })).body;
    await server.db
      .updateTable('rate_sources')
      .set({ next_poll_at: new Date(Date.now() + 3_600_000) })
      .where('id', '=', created.id)
      .execute();
    const res = await admin('PATCH', `/admin/rate-sources/${created.id}`, {
      url: 'https://rates.example/other.json',
      kind: 'json',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: created.name,
      kind: 'json',
      url: 'https://rates.example/other.json',
      intervalSeconds: 3600,
      maxAgeSeconds: 300,
    });
    expect(Date.parse(res.body.nextPollAt)).toBeLessThanOrEqual(Date.now() + 1000);
    const renamed = await admin('PATCH', `/admin/rate-sources/${created.id}`, { maxAgeSeconds: 7200 });
    expect(renamed.body).toMatchObject({ url: 'https://rates.example/other.json', maxAgeSeconds: 7200 });
  });

  it.each([{}, { intervalSeconds: 0 }, { kind: 'xml' }, { url: 'javascript:alert(1)' }, { name: '' }])(
    'refuses the change %j with a 400',
    async (body) => {
      const id = (await create()).body.id as number;
      const res = await admin('PATCH', `/admin/rate-sources/${id}`, body);
      expect(res.status, res.text).toBe(400);
    },
  );

  it('deletes a source no offer is priced from; 409 while one is', async () => {
    const free = (await create()).body.id as number;
    const deleted = await admin('DELETE', `/admin/rate-sources/${free}`);
    expect(deleted.status).toBe(204);
    expect((await admin('GET', `/admin/rate-sources/${free}`)).status).toBe(404);

    const used = (await create()).body.id as number;
    await server.db
      .updateTable('offers')
      .set({
        pricing_mode: 'source',
        rate_source_id: used,
        pricing_base: 'USD',
        pricing_quote: 'EUR',
        margin_percent: '1',
      })
      .where('id', '=', world.offers.aUsdEur)
      .execute();
    try {
      expect((await admin('GET', `/admin/rate-sources/${used}`)).body.offers).toBe(1);
      const refused = await admin('DELETE', `/admin/rate-sources/${used}`);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'The rate source prices 1 offer: switch it to another source or to a fixed rate first',
        errors: { rateSource: 'inUse' },
      });
      expect((await admin('GET', `/admin/rate-sources/${used}`)).status).toBe(200);
    } finally {
      await server.db
        .updateTable('offers')
        .set({
          pricing_mode: 'fixed',
          rate_source_id: null,
          pricing_base: null,
          pricing_quote: null,
          margin_percent: null,
        })
        .where('id', '=', world.offers.aUsdEur)
        .execute();
    }
  });

  it('records create, update and delete in the audit log, without the pairs', async () => {
    const id = (await create({ name: 'Audited' })).body.id as number;
    await admin('PATCH', `/admin/rate-sources/${id}`, { intervalSeconds: 30 });
    await admin('DELETE', `/admin/rate-sources/${id}`);
    const audit = await call(server, 'GET', '/admin/audit', {
      token: tokens.admin1,
      query: { entityType: 'rateSource', entityId: String(id), sort: 'oldest' },
    });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.data.map((r: { action: string }) => r.action)).toEqual([
      'rateSource.create',
      'rateSource.update',
      'rateSource.delete',
    ]);
    expect(audit.body.data[1].before).toMatchObject({ intervalSeconds: 60 });
    expect(audit.body.data[1].after).toMatchObject({ intervalSeconds: 30, name: 'Audited' });
    expect(audit.body.data[1].after).not.toHaveProperty('pairs');
  });
});
