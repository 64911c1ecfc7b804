import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown, who: StaffName = 'admin1') => call(server, method, path, { token: tokens[who], body });

describe('payment methods', () => {
  it('creates a method of the admin\'s branch, optionally bound to an exchange and a currency', async () => {
    const res = await admin('POST', '/admin/payment-methods', { name: 'SEPA', kind: 'bank_transfer', exchangeId: world.exchanges.A, currencyId: world.currencies.EUR });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), branchId: world.branches.b1, name: 'SEPA', kind: 'bank_transfer', exchangeId: world.exchanges.A,
      currencyId: world.currencies.EUR, isActive: true, createdAt: expect.any(String), updatedAt: expect.any(String),
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
    const res = await admin('POST', '/admin/payment-methods', { ...body, ...(body.exchangeId === -1 && { exchangeId: world.exchanges.C }) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });

  it('needs a branch from a superadmin, and checks the exchange belongs to it', async () => {
    expect((await admin('POST', '/admin/payment-methods', { name: 'x' }, 'superadmin')).body.errors).toEqual({ branchId: 'required' });
    const wrong = await admin('POST', '/admin/payment-methods', { name: 'x', branchId: world.branches.b2, exchangeId: world.exchanges.A }, 'superadmin');
    expect(wrong.body.errors).toEqual({ exchangeId: 'notFound' });
    const ok = await admin('POST', '/admin/payment-methods', { name: 'Card at C', kind: 'card', branchId: world.branches.b2, exchangeId: world.exchanges.C }, 'superadmin');
    expect(ok.status).toBe(201);
  });

  it('lists the branch\'s methods only, with filters', async () => {
    const mine = await admin('GET', '/admin/payment-methods');
    const ids = mine.body.data.map((p: { id: number }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([world.paymentMethods.cash1, world.paymentMethods.cardA, world.paymentMethods.cardB]));
    expect(ids).not.toContain(world.paymentMethods.cashC);
    expect(mine.body.data.every((p: { branchId: number }) => p.branchId === world.branches.b1)).toBe(true);
    const cards = await call(server, 'GET', '/admin/payment-methods', { token: tokens.admin2, query: { filter: '{"kind":"card"}' } });
    expect(cards.body.data.map((p: { name: string }) => p.name)).toEqual(['Card at C']);
  });

  it('renames, re-kinds and deactivates a method of the branch; another branch\'s is 404 and an operator 403', async () => {
    const created = await admin('POST', '/admin/payment-methods', { name: 'Old name' });
    const id = created.body.id;
    const changed = await admin('PATCH', `/admin/payment-methods/${id}`, { name: '  New name ', kind: 'card', isActive: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, name: 'New name', kind: 'card', isActive: false, branchId: world.branches.b1 });
    const listed = await admin('GET', '/admin/payment-methods', undefined);
    expect(listed.body.data.find((p: { id: number }) => p.id === id)).toMatchObject({ isActive: false, name: 'New name' });

    expect((await admin('PATCH', `/admin/payment-methods/${world.paymentMethods.cashC}`, { isActive: false })).status).toBe(404);
    expect((await admin('PATCH', `/admin/payment-methods/${id}`, { isActive: true }, 'operatorA')).status).toBe(403);
    expect((await admin('PATCH', `/admin/payment-methods/${id}`, { isActive: true }, 'superadmin')).body.isActive).toBe(true);
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
