import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as nameEachOnce } from '../../../src/db/migrations/012_payment_method_names.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown, who: StaffName = 'admin1') =>
  call(server, method, path, { token: tokens[who], body });

describe('payment methods', () => {
  it("creates a method of the admin's branch, optionally bound to an exchange and a currency", async () => {
    const res = await admin('POST', '/admin/payment-methods', {
      name: 'SEPA',
      kind: 'bank_transfer',
      exchangeId: world.exchanges.A,
      currencyId: world.currencies.EUR,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      branchId: world.branches.b1,
      name: 'SEPA',
      kind: 'bank_transfer',
      exchangeId: world.exchanges.A,
      currencyId: world.currencies.EUR,
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const plain = await admin('POST', '/admin/payment-methods', { name: 'Cash at any desk' });
    expect(plain.body).toMatchObject({ kind: 'cash', exchangeId: null, currencyId: null });
  });

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['an exchange of another branch', { name: 'x', exchangeId: -1 }, { exchangeId: 'notFound' }],
    ['an unknown currency', { name: 'x', currencyId: 999999 }, { currencyId: 'notFound' }],
    ['an unknown kind', { name: 'x', kind: 'barter' }, { kind: 'invalidValue' }],
    ['no name', { kind: 'cash' }, { name: 'required' }],
  ])('refuses %s with 400', async (_name, body, errors) => {
    const res = await admin('POST', '/admin/payment-methods', {
      ...body,
      ...(body.exchangeId === -1 && { exchangeId: world.exchanges.C }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });

  it('needs a branch from a superadmin, and checks the exchange belongs to it', async () => {
    expect((await admin('POST', '/admin/payment-methods', { name: 'x' }, 'superadmin')).body.errors).toEqual({
      branchId: 'required',
    });
    const wrong = await admin(
      'POST',
      '/admin/payment-methods',
      { name: 'x', branchId: world.branches.b2, exchangeId: world.exchanges.A },
      'superadmin',
    );
    expect(wrong.body.errors).toEqual({ exchangeId: 'notFound' });
    const ok = await admin(
      'POST',
      '/admin/payment-methods',
      { name: 'Card at C', kind: 'card', branchId: world.branches.b2, exchangeId: world.exchanges.C },
      'superadmin',
    );
    expect(ok.status).toBe(201);
  });

  it("lists the branch's methods only, with filters", async () => {
    const mine = await admin('GET', '/admin/payment-methods');
    const ids = mine.body.data.map((p: { id: number }) => p.id);
    expect(ids).toEqual(
      expect.arrayContaining([world.paymentMethods.cash1, world.paymentMethods.cardA, world.paymentMethods.cardB]),
    );
    expect(ids).not.toContain(world.paymentMethods.cashC);
    expect(mine.body.data.every((p: { branchId: number }) => p.branchId === world.branches.b1)).toBe(true);
    const cards = await call(server, 'GET', '/admin/payment-methods', {
      token: tokens.admin2,
      query: { filter: '{"kind":"card"}' },
    });
    expect(cards.body.data.map((p: { name: string }) => p.name)).toEqual(['Card at C']);
  });

  it("renames, re-kinds and deactivates a method of the branch; another branch's is 404 and an operator 403", async () => {
    const created = await admin('POST', '/admin/payment-methods', { name: 'Old name' });
    const id = created.body.id;
    const changed = await admin('PATCH', `/admin/payment-methods/${id}`, {
      name: '  New name ',
      kind: 'card',
      isActive: false,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id,
      name: 'New name',
      kind: 'card',
      isActive: false,
      branchId: world.branches.b1,
    });
    const listed = await admin('GET', '/admin/payment-methods', undefined);
    expect(listed.body.data.find((p: { id: number }) => p.id === id)).toMatchObject({
      isActive: false,
      name: 'New name',
    });

    expect(
      (await admin('PATCH', `/admin/payment-methods/${world.paymentMethods.cashC}`, { isActive: false })).status,
    ).toBe(404);
    expect((await admin('PATCH', `/admin/payment-methods/${id}`, { isActive: true }, 'operatorA')).status).toBe(403);
    expect((await admin('PATCH', `/admin/payment-methods/${id}`, { isActive: true }, 'superadmin')).body.isActive).toBe(
      true,
    );
  });

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['an empty change', {}, {}],
    ['a blank name', { name: '   ' }, { name: 'invalidFormat' }],
    ['an unknown kind', { kind: 'barter' }, { kind: 'invalidValue' }],
    ['a field that cannot change', { exchangeId: 1 }, { exchangeId: 'notAllowed' }],
  ])('refuses %s with 400', async (_name, body, errors) => {
    const res = await admin('PATCH', `/admin/payment-methods/${world.paymentMethods.cash1}`, body);
    expect(res.status).toBe(400);
    if (Object.keys(errors).length > 0) expect(res.body.errors).toEqual(errors);
  });
});

describe('one name per reach', () => {
  it('refuses a second method of the same name (case and spaces aside) for the same exchange and currency, on create and rename', async () => {
    const first = await admin('POST', '/admin/payment-methods', { name: 'Desk cash', exchangeId: world.exchanges.A });
    expect(first.status).toBe(201);
    const again = await admin('POST', '/admin/payment-methods', {
      name: ' desk CASH ',
      kind: 'card',
      exchangeId: world.exchanges.A,
    });
    expect(again.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'A payment method with this name already exists for the same exchange and currency',
      errors: { name: 'alreadyExists' },
    });
    // Another reach is another method: the same name at B, or branch-wide.
    const atB = await admin('POST', '/admin/payment-methods', { name: 'Desk cash', exchangeId: world.exchanges.B });
    expect((await admin('POST', '/admin/payment-methods', { name: 'Desk cash' })).status).toBe(201);
    expect(atB.status).toBe(201);
    const renamed = await admin('PATCH', `/admin/payment-methods/${atB.body.id}`, { name: 'Card at B' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.errors).toEqual({ name: 'alreadyExists' });
  });

  it('renames the later of the duplicates made before the rule (migration 012)', async () => {
    await server.db.schema.dropIndex('payment_methods_name_key').execute();
    const now = new Date();
    const rows = await server.db
      .insertInto('payment_methods')
      .values([
        { branch_id: world.branches.b2, name: 'Twin', updated_at: now },
        { branch_id: world.branches.b2, name: 'twin', updated_at: now },
      ])
      .returning('id')
      .execute();
    await nameEachOnce(server.db as unknown as Kysely<unknown>);
    const names = await server.db
      .selectFrom('payment_methods')
      .select(['id', 'name'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    expect(names.map((n) => n.name)).toEqual(['Twin', `twin (${rows[1].id})`]);
    const dup = await server.db
      .insertInto('payment_methods')
      .values({ branch_id: world.branches.b2, name: 'TWIN', updated_at: now })
      .execute()
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(dup).toMatchObject({ code: '23505' });
  });
});
