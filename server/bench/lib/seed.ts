import type { Database } from '../../src/db/database.js';
import { issueApiKey } from '../../src/features/api-keys/issue.js';

const CODES = ['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'PLN', 'CZK', 'SEK', 'NOK', 'BTC', 'ETH', 'USDT'];

export interface BenchData {
  branchId: number;
  exchangeId: number;
  currencies: Record<string, number>;
  keys: { branch: string; public: string };
  branchKeyId: string;
}

/** A realistic branch: 4 exchanges with schedules, 12 currencies, 120 offers, 2,000 orders; a branch and a public key. */
export async function seedBench(db: Database): Promise<BenchData> {
  const now = new Date();
  const branch = await db
    .insertInto('branches')
    .values({ name: 'Bench Branch' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const exchanges = await db
    .insertInto('exchanges')
    .values(
      [1, 2, 3, 4].map((i) => ({
        branch_id: branch.id,
        name: `Bench Exchange ${i}`,
        address: `${i} Bench Street`,
        city: 'Benchville',
        phone_number: `+1555000000${i}`,
        chat_url: `https://chat.example/${i}`,
        latitude: '50.1',
        longitude: '14.4',
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  await db
    .insertInto('exchange_schedule')
    .values(
      exchanges.flatMap((e) =>
        [1, 2, 3, 4, 5, 6, 7]
          .map((d) => ({
            exchange_id: e.id,
            day_of_week: d,
            open_time: '09:00',
            close_time: '18:00',
            is_closed: d === 7,
          }))
          .map((s) => (s.is_closed ? { ...s, open_time: null, close_time: null } : s)),
      ),
    )
    .execute();
  const currencies = await db
    .insertInto('currencies')
    .values(
      CODES.map((code) => ({
        code,
        name: `Currency ${code}`,
        decimals: ['BTC', 'ETH'].includes(code) ? 8 : code === 'USDT' ? 6 : code === 'JPY' ? 0 : 2,
        kind: ['BTC', 'ETH', 'USDT'].includes(code) ? ('crypto' as const) : ('fiat' as const),
        image_id: null,
        image_path: null,
        updated_at: now,
      })),
    )
    .returning(['id', 'code'])
    .execute();
  const byCode = Object.fromEntries(currencies.map((c) => [c.code, c.id]));
  const offers = [];
  for (const e of exchanges) {
    for (let i = 0; i < CODES.length && offers.length < 120; i++) {
      for (let j = 0; j < 3; j++) {
        const a = CODES[i];
        const b = CODES[(i + j + 1) % CODES.length];
        offers.push({
          exchange_id: e.id,
          currency1_id: byCode[a],
          currency2_id: byCode[b],
          rate: (0.5 + ((i * 7 + j * 3) % 17) / 10).toFixed(6),
          min_amount: '1',
          max_amount: '1000000',
          updated_at: now,
        });
      }
    }
  }
  await db.insertInto('offers').values(offers).execute();
  await seedOrders(
    db,
    branch.id,
    exchanges.map((e) => e.id),
    byCode,
    2000,
  );
  const staff = await db
    .insertInto('staff_users')
    .values({ email: 'bench@bench.local', password_hash: 'x', role: 'superadmin', updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const branchKey = await issueApiKey(db, {
    name: 'bench branch',
    type: 'branch',
    staffUserId: staff.id,
    branchId: branch.id,
  });
  const publicKey = await issueApiKey(db, {
    name: 'bench public',
    type: 'public',
    staffUserId: staff.id,
    branchId: branch.id,
  });
  return {
    branchId: branch.id,
    exchangeId: exchanges[0].id,
    currencies: byCode,
    keys: { branch: branchKey.rawKey, public: publicKey.rawKey },
    branchKeyId: branchKey.key.id,
  };
}

/** Orders marked `seed`: the ones a run creates are removed after each write slice (removeCreatedOrders). */
async function seedOrders(
  db: Database,
  branchId: number,
  exchangeIds: number[],
  currencies: Record<string, number>,
  count: number,
) {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    hashed_id: `seed${String(i).padStart(20, '0')}`,
    branch_id: branchId,
    cashbox_id: exchangeIds[i % exchangeIds.length],
    currency1_id: currencies.USD,
    currency2_id: currencies.EUR,
    client_amount: String(100 + (i % 50)),
    exchange_amount: String(92 + (i % 50)),
    operation_type: 'finop' as const,
    comment: 'seed',
    created_at: new Date(now - (count - i) * 60_000),
    updated_at: new Date(now - (count - i) * 60_000),
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('orders')
      .values(rows.slice(i, i + 500))
      .execute();
}
