import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let seq = 0;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

const valid = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Ana',
  lastName: 'Silva',
  email: `ana.${++seq}@example.com`,
  phone: '+351912345678',
  ...overrides,
});
const create = (body: Record<string, unknown>, key = world.keys.branch) =>
  call(server, 'POST', '/partner/clients', { key, body });
const patch = (id: number, body: unknown, key = world.keys.branch) =>
  call(server, 'PATCH', `/partner/clients/${id}`, { key, body });

describe('GET /partner/clients/{id}', () => {
  it('answers the Client, or 404 client notFound', async () => {
    const created = await create(valid());
    const res = await call(server, 'GET', `/partner/clients/${created.body.id}`, { key: world.keys.readOnlyA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    const missing = await call(server, 'GET', '/partner/clients/999999', { key: world.keys.branch });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, error: 'Not Found', errors: { client: 'notFound' } });
  });
});

describe('PATCH /partner/clients/{id}', () => {
  it('changes only the given fields, with the same normalisation', async () => {
    const created = (await create(valid({ email: 'patch.me@example.com' }))).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await patch(created.id, { firstName: '  Maria  ', email: 'Maria@Example.com' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...created,
      firstName: 'Maria',
      email: 'maria@example.com',
      updatedAt: expect.any(String),
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await patch(created.id, { phone: '+4915112345678' })).body).toMatchObject({
      firstName: 'Maria',
      phone: '+4915112345678',
    });
    // Its own email again is no duplicate.
    expect((await patch(created.id, { email: 'maria@example.com' })).status).toBe(200);
  });

  it.each([
    [{}, { body: 'empty' }],
    [{ firstName: ' ' }, { firstName: 'tooShort' }],
    [{ lastName: 'z'.repeat(101) }, { lastName: 'tooLong' }],
    [{ email: 'nope' }, { email: 'invalidFormat' }],
    [{ phone: '0049151' }, { phone: 'invalidFormat' }],
    [{ firstName: 'Ok', phone: '+1' }, { phone: 'invalidFormat' }],
    [{ branchId: 2 }, { branchId: 'notAllowed' }],
    [{ firstName: ['Ana', 'Maria'] }, { firstName: 'invalidType' }],
  ])('%o → 400 %o, nothing changed', async (body, errors) => {
    const created = (await create(valid())).body;
    const res = await patch(created.id, body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
    expect((await call(server, 'GET', `/partner/clients/${created.id}`, { key: world.keys.branch })).body).toEqual(
      created,
    );
  });

  it("refuses another client's email (400 alreadyExists) and leaves the row as it was", async () => {
    await create(valid({ email: 'taken@example.com' }));
    const created = (await create(valid())).body;
    const res = await patch(created.id, { email: 'TAKEN@example.com', firstName: 'Changed' });
    expect(res.body.errors).toEqual({ email: 'alreadyExists' });
    expect((await call(server, 'GET', `/partner/clients/${created.id}`, { key: world.keys.branch })).body).toEqual(
      created,
    );
  });

  it('a missing client → 404', async () => {
    expect((await patch(999999, { firstName: 'X' })).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      errors: { client: 'notFound' },
    });
  });
});
