import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import { issueApiKey } from '../../../src/features/api-keys/issue.js';
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
const exchangesOf = async (id: number) =>
  (
    await server.db
      .selectFrom('client_exchanges')
      .select('exchange_id')
      .where('client_id', '=', id)
      .orderBy('exchange_id')
      .execute()
  ).map((r) => r.exchange_id);
const counts = async () => ({
  clients: (await server.db.selectFrom('clients').select('id').execute()).length,
  links: (await server.db.selectFrom('client_exchanges').select('client_id').execute()).length,
});

describe('POST /partner/clients', () => {
  it('stores names trimmed and the email lower-case, and answers the Client', async () => {
    const res = await create({
      firstName: '  Ana ',
      lastName: '\tSilva\n',
      email: ' Ana.Silva@Example.COM ',
      phone: '+351912345678',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      firstName: 'Ana',
      lastName: 'Silva',
      email: 'ana.silva@example.com',
      phone: '+351912345678',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const row = await server.db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      branch_id: world.branches.b1,
      first_name: 'Ana',
      last_name: 'Silva',
      email: 'ana.silva@example.com',
    });
  });

  it("associates the client with the exchanges of the key's scope", async () => {
    const { A, B, X, C } = world.exchanges;
    expect(await exchangesOf((await create(valid())).body.id)).toEqual([A, B, X]);
    expect(await exchangesOf((await create(valid(), world.keys.admin1)).body.id)).toEqual([A, B, X]);
    expect(await exchangesOf((await create(valid(), world.keys.operatorA)).body.id)).toEqual([A]);
    expect(await exchangesOf((await create(valid(), world.keys.operatorB)).body.id)).toEqual([B]);
    const other = await create(valid(), world.keys.otherBranch);
    expect(await exchangesOf(other.body.id)).toEqual([C]);
    const row = await server.db
      .selectFrom('clients')
      .select('branch_id')
      .where('id', '=', other.body.id)
      .executeTakeFirstOrThrow();
    expect(row.branch_id).toBe(world.branches.b2);
  });

  it('a key reaching every branch names the branch; others may not', async () => {
    expect((await create(valid(), world.keys.superadmin)).body.errors).toEqual({ branchId: 'required' });
    expect((await create(valid({ branchId: 999999 }), world.keys.superadmin)).body.errors).toEqual({
      branchId: 'notFound',
    });
    const ok = await create(valid({ branchId: world.branches.b2 }), world.keys.superadmin);
    expect(ok.status, ok.text).toBe(201);
    expect(await exchangesOf(ok.body.id)).toEqual([world.exchanges.C]);
    const refused = await create(valid({ branchId: world.branches.b1 }));
    expect(refused.body).toEqual({
      statusCode: 400,
      message: 'branchId is only accepted from a key that reaches every branch',
      error: 'Bad Request',
      errors: { branchId: 'notAllowed' },
    });
  });

  it('accepts the bounds: 1 and 100 characters after trimming, 7 and 15 phone digits', async () => {
    expect(
      (await create(valid({ firstName: ' A ', lastName: `  ${'é'.repeat(100)}  `, phone: '+1234567' }))).status,
    ).toBe(201);
    expect((await create(valid({ phone: '+123456789012345' }))).status).toBe(201);
  });

  it.each([
    [{ firstName: '' }, { firstName: 'tooShort' }],
    [{ firstName: '   ' }, { firstName: 'tooShort' }],
    [{ firstName: 'x'.repeat(101) }, { firstName: 'tooLong' }],
    [{ lastName: '\n\t' }, { lastName: 'tooShort' }],
    [{ lastName: 'y'.repeat(101) }, { lastName: 'tooLong' }],
    [{ lastName: 'y'.repeat(1001) }, { lastName: 'tooLong' }],
    [{ firstName: 'Ana\u202Egnp.exe' }, { firstName: 'invalidCharacter' }],
    [{ lastName: 'Sil\u2066va' }, { lastName: 'invalidCharacter' }],
    [{ lastName: 'Silva\nAdmin' }, { lastName: 'invalidCharacter' }],
    [{ firstName: 'A\u0000na' }, { firstName: 'invalidCharacter' }],
    [{ email: 'not-an-email' }, { email: 'invalidFormat' }],
    [{ email: 'ana@' }, { email: 'invalidFormat' }],
    [{ email: 'ana silva@example.com' }, { email: 'invalidFormat' }],
    [{ email: 'ana@@example.com' }, { email: 'invalidFormat' }],
    [{ email: `${'a'.repeat(65)}@example.com` }, { email: 'invalidFormat' }],
    [{ phone: '351912345678' }, { phone: 'invalidFormat' }],
    [{ phone: '+123456' }, { phone: 'invalidFormat' }],
    [{ phone: '+1234567890123456' }, { phone: 'invalidFormat' }],
    [{ phone: '+351 912 345 678' }, { phone: 'invalidFormat' }],
    [{ phone: '+35191234567a' }, { phone: 'invalidFormat' }],
    [
      { email: 'bad', phone: 'bad', firstName: '' },
      { firstName: 'tooShort', email: 'invalidFormat', phone: 'invalidFormat' },
    ],
    [{ firstName: undefined }, { firstName: 'required' }],
    [
      { email: undefined, phone: undefined },
      { email: 'required', phone: 'required' },
    ],
    [{ firstName: { text: 'Ana' } }, { firstName: 'invalidType' }],
    [{ id: 5 }, { id: 'notAllowed' }],
  ])('%o → 400 %o, nothing written', async (overrides, errors) => {
    const before = await counts();
    const res = await create(valid(overrides));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
    expect(res.body.error).toBe('Bad Request');
    expect(await counts()).toEqual(before);
  });

  it('names each problem in the message', async () => {
    const res = await create(valid({ firstName: ' ', email: 'x', phone: '1' }));
    expect(res.body.message).toEqual([
      'firstName should not be empty',
      'email must be an email address',
      'phone must be in E.164 format: + then 7 to 15 digits',
    ]);
  });

  it('refuses a duplicate email within the branch, whatever its case; another branch may reuse it', async () => {
    expect((await create(valid({ email: 'dup@example.com' }))).status).toBe(201);
    const before = await counts();
    const res = await create(valid({ email: ' DUP@Example.com' }), world.keys.operatorB);
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'email is already used by another client of this branch',
      error: 'Bad Request',
      errors: { email: 'alreadyExists' },
    });
    expect(await counts()).toEqual(before);
    expect((await create(valid({ email: 'dup@example.com' }), world.keys.otherBranch)).status).toBe(201);
  });

  it('an operator without exchanges cannot create a client it could never read: 403, the insert rolled back', async () => {
    const staff = await server.db
      .insertInto('staff_users')
      .values({
        email: 'lonely@test.local',
        password_hash: 'x',
        role: 'operator',
        branch_id: world.branches.b1,
        permissions: ['clients:read', 'clients:write'],
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { rawKey } = await issueApiKey(server.db, {
      name: 'lonely',
      type: 'personal',
      staffUserId: staff.id,
      branchId: null,
    });
    const before = await counts();
    const res = await create(valid(), rawKey);
    expect(res.body).toEqual({
      statusCode: 403,
      message: 'This key reaches no exchange to associate the client with',
      error: 'Forbidden',
    });
    expect(await counts()).toEqual(before);
  });

  it('a race on one email: one 201, the rest 400 alreadyExists, never a 500, no orphan links', async () => {
    const before = await counts();
    const results = await Promise.all(Array.from({ length: 10 }, () => create(valid({ email: 'race@example.com' }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(400)]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.errors).toEqual({ email: 'alreadyExists' });
    // One client, linked to A, B and X.
    expect(await counts()).toEqual({ clients: before.clients + 1, links: before.links + 3 });
  });
});
