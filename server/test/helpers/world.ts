import { hashPassword } from '../../src/auth/password.js';
import type { Database } from '../../src/db/database.js';
import type { ApiKeyType, Permission, StaffRole } from '../../src/db/schema.js';
import { issueApiKey } from '../../src/features/api-keys/issue.js';

export const STAFF_PASSWORD = 'correct-horse-battery-staple';
let passwordHash: Promise<string> | undefined;

const ALL: Permission[] = ['orders:read', 'orders:write', 'clients:read', 'clients:write', 'webhooks:manage'];

/**
 * Two branches. Branch 1 has exchanges A and B (active) and X (inactive); branch 2 has exchange C.
 * Currencies: USD (2 decimals), EUR (2), BTC (8), JPY (0), USDT (6). Staff of every role, and keys of every type:
 *   keys.branch / keys.public            branch-1 branch and public keys
 *   keys.operatorA / keys.operatorB      personal keys of operators assigned to A / to B (all permissions)
 *   keys.readOnlyA                       personal key of an operator on A with only read permissions
 *   keys.admin1                          personal key of branch 1's admin
 *   keys.superadmin                      personal key of the superadmin (every branch)
 *   keys.otherBranch / keys.otherPublic  branch-2 branch and public keys
 */
export async function createWorld(db: Database) {
  passwordHash ??= hashPassword(STAFF_PASSWORD);
  const hash = await passwordHash;
  const now = new Date();

  const [b1, b2] = await db
    .insertInto('branches')
    .values([{ name: 'Branch One' }, { name: 'Branch Two' }])
    .returning('id')
    .execute();
  const ex = await db
    .insertInto('exchanges')
    .values([
      {
        branch_id: b1.id,
        name: 'Exchange A',
        address: '1 A Street',
        city: 'Alpha',
        phone_number: '+10000000001',
        chat_url: 'https://chat.example/a',
        latitude: '10.5',
        longitude: '-20.25',
        updated_at: now,
      },
      { branch_id: b1.id, name: 'Exchange B', address: '2 B Street', city: 'Beta', updated_at: now },
      {
        branch_id: b1.id,
        name: 'Exchange X (inactive)',
        address: '3 X Street',
        city: 'Alpha',
        is_active: false,
        updated_at: now,
      },
      { branch_id: b2.id, name: 'Exchange C', address: '4 C Street', city: 'Gamma', updated_at: now },
    ])
    .returning('id')
    .execute();
  const [A, B, X, C] = ex.map((e) => e.id);
  await db
    .insertInto('exchange_schedule')
    .values([
      { exchange_id: A, day_of_week: 1, open_time: '09:00', close_time: '18:00', is_closed: false },
      { exchange_id: A, day_of_week: 7, open_time: null, close_time: null, is_closed: true },
    ])
    .execute();

  const cur = await db
    .insertInto('currencies')
    .values([
      {
        code: 'USD',
        name: 'US Dollar',
        decimals: 2,
        image_id: '00000000-0000-4000-8000-000000000001',
        image_path: '/img/usd.svg',
        updated_at: now,
      },
      { code: 'EUR', name: 'Euro', decimals: 2, image_id: null, image_path: null, updated_at: now },
      { code: 'BTC', name: 'Bitcoin', kind: 'crypto', decimals: 8, image_id: null, image_path: null, updated_at: now },
      { code: 'JPY', name: 'Yen', decimals: 0, image_id: null, image_path: null, updated_at: now },
      { code: 'USDT', name: 'Tether', kind: 'crypto', decimals: 6, image_id: null, image_path: null, updated_at: now },
    ])
    .returning(['id', 'code'])
    .execute();
  const c = Object.fromEntries(cur.map((r) => [r.code, r.id])) as Record<
    'USD' | 'EUR' | 'BTC' | 'JPY' | 'USDT',
    number
  >;

  const offerRows = await db
    .insertInto('offers')
    .values([
      {
        exchange_id: A,
        currency1_id: c.USD,
        currency2_id: c.EUR,
        rate: '0.9215',
        min_amount: '10',
        max_amount: '10000',
        updated_at: now,
      },
      {
        exchange_id: A,
        currency1_id: c.BTC,
        currency2_id: c.USD,
        rate: '64250.17',
        min_amount: '0.0001',
        max_amount: '5',
        updated_at: now,
      },
      {
        exchange_id: A,
        currency1_id: c.EUR,
        currency2_id: c.JPY,
        rate: '161.3791',
        min_amount: '1',
        max_amount: '5000',
        updated_at: now,
      },
      {
        exchange_id: A,
        currency1_id: c.USDT,
        currency2_id: c.BTC,
        rate: '0.0000155123456789',
        min_amount: '10',
        max_amount: '100000',
        updated_at: now,
      },
      {
        exchange_id: B,
        currency1_id: c.USD,
        currency2_id: c.EUR,
        rate: '0.93',
        min_amount: '5',
        max_amount: '500',
        updated_at: now,
      },
      {
        exchange_id: B,
        currency1_id: c.EUR,
        currency2_id: c.USD,
        rate: '1.07',
        min_amount: '5',
        max_amount: '500',
        is_active: false,
        updated_at: now,
      },
      {
        exchange_id: X,
        currency1_id: c.USD,
        currency2_id: c.EUR,
        rate: '0.95',
        min_amount: '1',
        max_amount: '100',
        updated_at: now,
      },
      {
        exchange_id: C,
        currency1_id: c.USD,
        currency2_id: c.EUR,
        rate: '0.90',
        min_amount: '1',
        max_amount: '100',
        updated_at: now,
      },
    ])
    .returning('id')
    .execute();
  const offers = {
    aUsdEur: offerRows[0].id,
    aBtcUsd: offerRows[1].id,
    aEurJpy: offerRows[2].id,
    aUsdtBtc: offerRows[3].id,
    bUsdEur: offerRows[4].id,
    bEurUsdInactive: offerRows[5].id,
    xUsdEur: offerRows[6].id,
    cUsdEur: offerRows[7].id,
  };

  const pm = await db
    .insertInto('payment_methods')
    .values([
      { branch_id: b1.id, exchange_id: null, name: 'Cash', updated_at: now },
      { branch_id: b1.id, exchange_id: A, name: 'Card at A', kind: 'card', updated_at: now },
      { branch_id: b1.id, exchange_id: B, name: 'Card at B', kind: 'card', updated_at: now },
      { branch_id: b2.id, exchange_id: C, name: 'Cash at C', updated_at: now },
    ])
    .returning('id')
    .execute();
  const paymentMethods = { cash1: pm[0].id, cardA: pm[1].id, cardB: pm[2].id, cashC: pm[3].id };

  const staffSpec: [string, StaffRole, number | null, number[], Permission[]][] = [
    ['superadmin', 'superadmin', null, [], []],
    ['admin1', 'admin', b1.id, [], []],
    ['admin2', 'admin', b2.id, [], []],
    ['operatorA', 'operator', b1.id, [A], ALL],
    ['operatorB', 'operator', b1.id, [B], ALL],
    ['readOnlyA', 'operator', b1.id, [A], ['orders:read', 'clients:read']],
  ];
  const staff: Record<string, { id: number; email: string }> = {};
  for (const [name, role, branchId, exchanges, permissions] of staffSpec) {
    const email = `${name.toLowerCase()}@test.local`;
    const row = await db
      .insertInto('staff_users')
      .values({ email, password_hash: hash, role, branch_id: branchId, permissions, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (exchanges.length > 0)
      await db
        .insertInto('staff_user_exchanges')
        .values(exchanges.map((e) => ({ staff_user_id: row.id, exchange_id: e })))
        .execute();
    staff[name] = { id: row.id, email };
  }

  const keySpec: [string, ApiKeyType, string, number | null][] = [
    ['branch', 'branch', 'superadmin', b1.id],
    ['public', 'public', 'superadmin', b1.id],
    ['operatorA', 'personal', 'operatorA', null],
    ['operatorB', 'personal', 'operatorB', null],
    ['readOnlyA', 'personal', 'readOnlyA', null],
    ['admin1', 'personal', 'admin1', null],
    ['superadmin', 'personal', 'superadmin', null],
    ['otherBranch', 'branch', 'superadmin', b2.id],
    ['otherPublic', 'public', 'superadmin', b2.id],
  ];
  const keys: Record<string, string> = {};
  const keyIds: Record<string, string> = {};
  for (const [name, type, owner, branchId] of keySpec) {
    const { key, rawKey } = await issueApiKey(db, { name, type, staffUserId: staff[owner].id, branchId });
    keys[name] = rawKey;
    keyIds[name] = key.id;
  }

  return {
    branches: { b1: b1.id, b2: b2.id },
    exchanges: { A, B, X, C },
    currencies: c,
    offers,
    paymentMethods,
    staff,
    keys: keys as Record<
      | 'branch'
      | 'public'
      | 'operatorA'
      | 'operatorB'
      | 'readOnlyA'
      | 'admin1'
      | 'superadmin'
      | 'otherBranch'
      | 'otherPublic',
      string
    >,
    keyIds: keyIds as Record<keyof typeof keys, string>,
  };
}

export type World = Awaited<ReturnType<typeof createWorld>>;
