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

const lookups = async (who: StaffName) => {
  const res = await call(server, 'GET', '/admin/lookups', { token: tokens[who] });
  expect(res.status).toBe(200);
  return res.body;
};
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('GET /admin/lookups', () => {
  it('names what each role reaches: a superadmin everything, an admin its branch, an operator its exchanges', async () => {
    const all = await lookups('superadmin');
    expect(ids(all.branches)).toEqual([world.branches.b1, world.branches.b2]);
    expect(ids(all.exchanges)).toEqual([world.exchanges.A, world.exchanges.B, world.exchanges.X, world.exchanges.C]);
    expect(all.exchanges[2]).toEqual({
      id: world.exchanges.X,
      branchId: world.branches.b1,
      name: 'Exchange X (inactive)',
      isActive: false,
    });
    expect(all.currencies.map((c: { code: string }) => c.code)).toEqual(['USD', 'EUR', 'BTC', 'JPY', 'USDT']);
    expect(all.currencies[2]).toEqual({ id: world.currencies.BTC, code: 'BTC', name: 'Bitcoin', decimals: 8 });
    expect(ids(all.paymentMethods)).toEqual(Object.values(world.paymentMethods));

    const admin1 = await lookups('admin1');
    expect(admin1.branches).toEqual([{ id: world.branches.b1, name: 'Branch One' }]);
    expect(ids(admin1.exchanges)).toEqual([world.exchanges.A, world.exchanges.B, world.exchanges.X]);
    expect(ids(admin1.paymentMethods)).toEqual([
      world.paymentMethods.cash1,
      world.paymentMethods.cardA,
      world.paymentMethods.cardB,
    ]);

    const operatorA = await lookups('operatorA');
    expect(ids(operatorA.branches)).toEqual([world.branches.b1]);
    expect(ids(operatorA.exchanges)).toEqual([world.exchanges.A]);
    expect(ids(operatorA.paymentMethods)).toEqual([world.paymentMethods.cash1, world.paymentMethods.cardA]);
    expect(operatorA.currencies).toHaveLength(5);

    const admin2 = await lookups('admin2');
    expect(ids(admin2.exchanges)).toEqual([world.exchanges.C]);
    expect(ids(admin2.paymentMethods)).toEqual([world.paymentMethods.cashC]);
  });

  it('gives every role the transition table of staff moves', async () => {
    for (const who of ['superadmin', 'admin1', 'operatorA'] as const) {
      expect((await lookups(who)).orderMoves).toEqual({
        ORDERINIT: ['CLIENTPAYMENTWAIT', 'CANCEL'],
        CLIENTPAYMENTWAIT: ['EXCHANGEPAYMENTWAIT', 'CANCEL'],
        EXCHANGEPAYMENTWAIT: ['CASHOUT', 'SUCCESS', 'CANCEL'],
        CASHOUT: ['SUCCESS', 'CANCEL'],
        SUCCESS: [],
        CANCEL: [],
      });
    }
  });

  it('gives an operator without exchanges no exchange', async () => {
    await server.db.deleteFrom('staff_user_exchanges').where('staff_user_id', '=', world.staff.operatorB.id).execute();
    const res = await lookups('operatorB');
    expect(res.exchanges).toEqual([]);
    expect(ids(res.paymentMethods)).toEqual([world.paymentMethods.cash1]);
  });

  it('needs a staff token', async () => {
    expect((await call(server, 'GET', '/admin/lookups')).status).toBe(401);
    expect((await call(server, 'GET', '/admin/lookups', { key: world.keys.branch })).status).toBe(401);
  });
});
