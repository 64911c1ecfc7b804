import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const WEEK = [
  { dayOfWeek: 1, openTime: '09:00', closeTime: '18:00' },
  { dayOfWeek: 6, openTime: '10:00', closeTime: '14:30', isClosed: false },
  { dayOfWeek: 7, isClosed: true },
];

describe('POST /admin/exchanges', () => {
  it("creates an exchange in the admin's branch that partners see at once", async () => {
    const res = await admin('POST', '/admin/exchanges', {
      name: 'Harbour Desk',
      address: '9 Pier',
      city: 'Porto',
      contacts: { phoneNumber: '+351220000009', chat: 'https://t.me/harbour' },
      location: { latitude: 41.14, longitude: -8.61 },
      timezone: 'Europe/Lisbon',
      schedule: WEEK,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      branchId: world.branches.b1,
      name: 'Harbour Desk',
      address: '9 Pier',
      city: 'Porto',
      contacts: { phoneNumber: '+351220000009', chat: 'https://t.me/harbour' },
      location: { latitude: 41.14, longitude: -8.61 },
      timezone: 'Europe/Lisbon',
      isActive: true,
      paymentWindowSeconds: 3600,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      schedule: [
        { dayOfWeek: 1, openTime: '09:00', closeTime: '18:00', isClosed: false },
        { dayOfWeek: 6, openTime: '10:00', closeTime: '14:30', isClosed: false },
        { dayOfWeek: 7, openTime: null, closeTime: null, isClosed: true },
      ],
    });
    const partner = await call(server, 'GET', '/partner/public/exchanges', { key: world.keys.public });
    const seen = partner.body.find((e: { id: number }) => e.id === res.body.id);
    expect(seen).toMatchObject({
      name: 'Harbour Desk',
      exchangeActive: true,
      contacts: { address: '9 Pier', chat: 'https://t.me/harbour' },
    });
    expect(seen.schedule).toHaveLength(3);
    const other = await call(server, 'GET', '/partner/public/exchanges', { key: world.keys.otherPublic });
    expect(other.body.map((e: { id: number }) => e.id)).not.toContain(res.body.id);
  });

  it('needs a branch from a superadmin, and an existing one', async () => {
    expect((await admin('POST', '/admin/exchanges', { name: 'X' }, 'superadmin')).body.errors).toEqual({
      branchId: 'required',
    });
    expect(
      (await admin('POST', '/admin/exchanges', { name: 'X', branchId: 999999 }, 'superadmin')).body.errors,
    ).toEqual({ branchId: 'notFound' });
    const ok = await admin('POST', '/admin/exchanges', { name: 'Gamma 2', branchId: world.branches.b2 }, 'superadmin');
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      branchId: world.branches.b2,
      address: '',
      city: '',
      location: null,
      timezone: 'UTC',
      schedule: [],
    });
  });

  it.each([
    ['a blank name', { name: '  ' }, 'name'],
    ['an unknown time zone', { name: 'X', timezone: 'Mars/Olympus' }, 'timezone'],
    [
      'an open day without hours',
      { name: 'X', schedule: [{ dayOfWeek: 2, openTime: '09:00' }] },
      'schedule.0.closeTime',
    ],
    [
      'a day given twice',
      {
        name: 'X',
        schedule: [
          { dayOfWeek: 2, isClosed: true },
          { dayOfWeek: 2, isClosed: true },
        ],
      },
      'schedule.1.dayOfWeek',
    ],
    [
      'a bad time',
      { name: 'X', schedule: [{ dayOfWeek: 2, openTime: '25:00', closeTime: '26:00' }] },
      'schedule.0.openTime',
    ],
    ['a day out of range', { name: 'X', schedule: [{ dayOfWeek: 8, isClosed: true }] }, 'schedule.0.dayOfWeek'],
    ['half a location', { name: 'X', location: { latitude: 10 } }, 'location'],
    ['a chat that is not a link', { name: 'X', contacts: { chat: 'javascript:alert(1)' } }, 'contacts.chat'],
    [
      'a day that closes before it opens',
      { name: 'X', schedule: [{ dayOfWeek: 1, openTime: '20:00', closeTime: '19:00' }] },
      'schedule.0.closeTime',
    ],
    [
      'a day that closes as it opens',
      { name: 'X', schedule: [{ dayOfWeek: 1, openTime: '09:00', closeTime: '09:00' }] },
      'schedule.0.closeTime',
    ],
    ['a phone that is not one', { name: 'X', contacts: { phoneNumber: 'call me' } }, 'contacts.phoneNumber'],
  ])('refuses %s with 400', async (_name, body, field) => {
    const res = await admin('POST', '/admin/exchanges', body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).some((k) => k.startsWith(field))).toBe(true);
  });

  it('takes hours to midnight (00:00) or round the clock, and a phone as people write it, or none', async () => {
    const res = await admin('POST', '/admin/exchanges', {
      name: 'Late Desk',
      contacts: { phoneNumber: '+351 21 123-4567' },
      schedule: [
        { dayOfWeek: 5, openTime: '18:00', closeTime: '00:00' },
        { dayOfWeek: 6, openTime: '00:00', closeTime: '00:00' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.schedule).toEqual([
      { dayOfWeek: 5, openTime: '18:00', closeTime: '00:00', isClosed: false },
      { dayOfWeek: 6, openTime: '00:00', closeTime: '00:00', isClosed: false },
    ]);
    const cleared = await admin('PATCH', `/admin/exchanges/${res.body.id}`, { contacts: { phoneNumber: '' } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.contacts.phoneNumber).toBe('');
    const refused = await admin('PATCH', `/admin/exchanges/${res.body.id}`, {
      schedule: [{ dayOfWeek: 1, openTime: '20:00', closeTime: '19:00' }],
    });
    expect(refused.body).toMatchObject({
      statusCode: 400,
      message: 'schedule.0.closeTime must be after openTime 20:00; 00:00 closes at midnight',
      errors: { 'schedule.0.closeTime': 'invalidValue' },
    });
  });

  it('names the audit entry for what changed: the week sent again unchanged is not a schedule change', async () => {
    const created = await admin('POST', '/admin/exchanges', {
      name: 'Audit Desk',
      schedule: [{ dayOfWeek: 2, openTime: '09:00', closeTime: '17:00' }],
    });
    const id = created.body.id;
    const actions = async () =>
      (
        await call(server, 'GET', '/admin/audit', {
          token: tokens.admin1,
          query: { entityType: 'exchange', entityId: id },
        })
      ).body.data.map((e: { action: string }) => e.action);
    // The console sends the whole week with every save.
    expect(
      (
        await admin('PATCH', `/admin/exchanges/${id}`, {
          contacts: { phoneNumber: '+351 21 000 0000' },
          schedule: created.body.schedule,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await admin('PATCH', `/admin/exchanges/${id}`, {
          schedule: [{ dayOfWeek: 2, openTime: '10:00', closeTime: '17:00' }],
        })
      ).status,
    ).toBe(200);
    expect(await actions()).toEqual(['exchange.update.schedule', 'exchange.update', 'exchange.create']);
  });
});

describe('GET /admin/exchanges', () => {
  it("lists the exchanges of the caller's branch, active or not, paginated", async () => {
    const res = await admin('GET', '/admin/exchanges');
    expect(res.status).toBe(200);
    const ids = res.body.data.map((e: { id: number }) => e.id);
    expect(ids).toEqual(expect.arrayContaining([world.exchanges.A, world.exchanges.B, world.exchanges.X]));
    expect(ids).not.toContain(world.exchanges.C);
    expect(res.body.meta).toEqual({ total: ids.length, skip: 0, limit: 25, nextCursor: null });
  });

  it('filters and sorts', async () => {
    const inactive = await call(server, 'GET', '/admin/exchanges', {
      token: tokens.admin1,
      query: { filter: '{"isActive":false}' },
    });
    expect(inactive.body.data.map((e: { id: number }) => e.id)).toEqual([world.exchanges.X]);
    const all = await call(server, 'GET', '/admin/exchanges', {
      token: tokens.superadmin,
      query: { filter: JSON.stringify({ branchId: world.branches.b2 }), sort: '[["id","DESC"]]' },
    });
    expect(all.body.data[all.body.data.length - 1].id).toBe(world.exchanges.C);
    const bad = await call(server, 'GET', '/admin/exchanges', {
      token: tokens.admin1,
      query: { filter: '{"owner":1}' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('PATCH /admin/exchanges/{id}', () => {
  it('changes only the given fields; a schedule replaces the week; deactivation shows to partners', async () => {
    const res = await admin('PATCH', `/admin/exchanges/${world.exchanges.A}`, {
      city: 'Alpha Prime',
      schedule: [{ dayOfWeek: 3, openTime: '08:00', closeTime: '20:00' }],
      location: null,
      isActive: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Exchange A',
      address: '1 A Street',
      city: 'Alpha Prime',
      location: null,
      isActive: false,
      contacts: { phoneNumber: '+10000000001' },
    });
    expect(res.body.schedule).toEqual([{ dayOfWeek: 3, openTime: '08:00', closeTime: '20:00', isClosed: false }]);
    const partner = await call(server, 'GET', `/partner/exchanges/${world.exchanges.A}`, { key: world.keys.branch });
    expect(partner.body).toMatchObject({ city: 'Alpha Prime', isActive: false });
    expect((await admin('GET', `/admin/exchanges/${world.exchanges.A}`)).body).toEqual(res.body);
  });

  it('refuses an empty change and answers 404 outside the branch', async () => {
    expect((await admin('PATCH', `/admin/exchanges/${world.exchanges.B}`, {})).status).toBe(400);
    expect((await admin('PATCH', `/admin/exchanges/${world.exchanges.C}`, { name: 'Mine now' })).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      errors: { exchange: 'notFound' },
    });
  });
});
