import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import type { ApiKeyType } from '../db/schema.js';
import { hashPassword } from '../auth/password.js';
import { issueApiKey } from '../features/api-keys/issue.js';
import { Dec, ROUND_DOWN } from '../features/pricing/decimal.js';

export interface DemoCredentials {
  staff: { email: string; password: string; role: string }[];
  keys: { type: ApiKeyType; rawKey: string }[];
}

const WEEKDAYS = [1, 2, 3, 4, 5];

/**
 * Seeds a demo branch on an empty database: exchanges with schedules and contacts, fiat and crypto
 * currencies with different decimals, offers in both directions, payment methods, a client, staff users
 * and one key of each type. Returns null when the database already has data.
 */
export async function seedDemo(db: Database): Promise<DemoCredentials | null> {
  return db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('branches').select('id').limit(1).executeTakeFirst();
    if (existing) return null;
    const now = new Date();
    // A sandbox, so that a partner trying the demo can move its own orders and see every webhook (docs/integration.md).
    const branch = await tx
      .insertInto('branches')
      .values({ name: 'Demo Branch', is_sandbox: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx.insertInto('branches').values({ name: 'Other Branch' }).execute();

    const exchanges = await tx
      .insertInto('exchanges')
      .values([
        {
          branch_id: branch.id,
          name: 'Central Exchange',
          address: '1 Main Square',
          city: 'Lisbon',
          phone_number: '+351210000001',
          chat_url: 'https://t.me/central_exchange',
          latitude: '38.707751',
          longitude: '-9.136592',
          timezone: 'Europe/Lisbon',
          updated_at: now,
        },
        {
          branch_id: branch.id,
          name: 'Airport Desk',
          address: 'Terminal 1, Arrivals',
          city: 'Lisbon',
          phone_number: '+351210000002',
          chat_url: 'https://t.me/airport_desk',
          latitude: '38.774167',
          longitude: '-9.134167',
          timezone: 'Europe/Lisbon',
          updated_at: now,
        },
        {
          branch_id: branch.id,
          name: 'Harbour Kiosk (closed for renovation)',
          address: '7 Dock Road',
          city: 'Porto',
          phone_number: '+351220000003',
          chat_url: 'https://t.me/harbour_kiosk',
          timezone: 'Europe/Lisbon',
          is_active: false,
          updated_at: now,
        },
      ])
      .returning('id')
      .execute();
    const [central, airport, harbour] = exchanges.map((e) => e.id);

    const schedule = [
      ...[1, 2, 3, 4, 5, 6, 7].map((d) => ({
        exchange_id: central,
        day_of_week: d,
        open_time: d <= 5 ? '09:00' : '10:00',
        close_time: d <= 5 ? '19:00' : '16:00',
        is_closed: d === 7,
      })),
      ...[1, 2, 3, 4, 5, 6, 7].map((d) => ({
        exchange_id: airport,
        day_of_week: d,
        open_time: '06:00',
        close_time: '23:30',
        is_closed: false,
      })),
      ...WEEKDAYS.map((d) => ({
        exchange_id: harbour,
        day_of_week: d,
        open_time: '08:30',
        close_time: '17:00',
        is_closed: false,
      })),
    ];
    await tx
      .insertInto('exchange_schedule')
      .values(schedule.map((s) => (s.is_closed ? { ...s, open_time: null, close_time: null } : s)))
      .execute();

    const currencies = await tx
      .insertInto('currencies')
      .values([
        {
          code: 'USD',
          name: 'US Dollar',
          kind: 'fiat',
          decimals: 2,
          image_id: randomUUID(),
          image_path: '/images/currencies/usd.svg',
          updated_at: now,
        },
        {
          code: 'EUR',
          name: 'Euro',
          kind: 'fiat',
          decimals: 2,
          image_id: randomUUID(),
          image_path: '/images/currencies/eur.svg',
          updated_at: now,
        },
        {
          code: 'JPY',
          name: 'Japanese Yen',
          kind: 'fiat',
          decimals: 0,
          image_id: null,
          image_path: null,
          updated_at: now,
        },
        {
          code: 'BTC',
          name: 'Bitcoin',
          kind: 'crypto',
          decimals: 8,
          image_id: randomUUID(),
          image_path: '/images/currencies/btc.svg',
          updated_at: now,
        },
        {
          code: 'USDT',
          name: 'Tether',
          kind: 'crypto',
          decimals: 6,
          image_id: randomUUID(),
          image_path: '/images/currencies/usdt.svg',
          updated_at: now,
        },
      ])
      .returning(['id', 'code'])
      .execute();
    const c = Object.fromEntries(currencies.map((x) => [x.code, x.id]));

    const offers = await tx
      .insertInto('offers')
      .values([
        {
          exchange_id: central,
          currency1_id: c.USD,
          currency2_id: c.EUR,
          rate: '0.9215',
          min_amount: '10',
          max_amount: '10000',
          updated_at: now,
        },
        {
          exchange_id: central,
          currency1_id: c.EUR,
          currency2_id: c.USD,
          rate: '1.0712',
          min_amount: '10',
          max_amount: '10000',
          updated_at: now,
        },
        {
          exchange_id: central,
          currency1_id: c.USDT,
          currency2_id: c.EUR,
          rate: '0.918344',
          min_amount: '50',
          max_amount: '50000',
          updated_at: now,
        },
        {
          exchange_id: central,
          currency1_id: c.BTC,
          currency2_id: c.USD,
          rate: '64250.17',
          min_amount: '0.0005',
          max_amount: '2',
          updated_at: now,
        },
        {
          exchange_id: airport,
          currency1_id: c.EUR,
          currency2_id: c.JPY,
          rate: '161.37',
          min_amount: '20',
          max_amount: '3000',
          updated_at: now,
        },
        {
          exchange_id: airport,
          currency1_id: c.USD,
          currency2_id: c.EUR,
          rate: '0.8990',
          min_amount: '20',
          max_amount: '3000',
          updated_at: now,
        },
        {
          exchange_id: airport,
          currency1_id: c.EUR,
          currency2_id: c.BTC,
          rate: '0.0000143211',
          min_amount: '100',
          max_amount: '20000',
          is_active: false,
          updated_at: now,
        },
      ])
      .returning(['id', 'exchange_id', 'currency1_id', 'currency2_id'])
      .execute();
    const usdEur = offers.find(
      (o) => o.exchange_id === central && o.currency1_id === c.USD && o.currency2_id === c.EUR,
    )!;
    await tx.insertInto('offer_rates').values(demoRateHistory(usdEur.id, now)).execute();

    await tx
      .insertInto('payment_methods')
      .values([
        {
          branch_id: branch.id,
          exchange_id: null,
          currency_id: null,
          name: 'Cash at the desk',
          kind: 'cash',
          updated_at: now,
        },
        {
          branch_id: branch.id,
          exchange_id: central,
          currency_id: c.EUR,
          name: 'SEPA transfer',
          kind: 'bank_transfer',
          updated_at: now,
        },
        {
          branch_id: branch.id,
          exchange_id: central,
          currency_id: c.USDT,
          name: 'USDT (TRC-20)',
          kind: 'crypto',
          updated_at: now,
        },
      ])
      .execute();

    const client = await tx
      .insertInto('clients')
      .values({
        branch_id: branch.id,
        first_name: 'Ana',
        last_name: 'Silva',
        email: 'ana.silva@example.com',
        phone: '+351912345678',
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('client_exchanges')
      .values([
        { client_id: client.id, exchange_id: central },
        { client_id: client.id, exchange_id: airport },
      ])
      .execute();

    const staff = [
      {
        email: 'superadmin@demo.local',
        password: 'demo-superadmin-pass',
        role: 'superadmin' as const,
        branch_id: null,
      },
      { email: 'admin@demo.local', password: 'demo-admin-pass', role: 'admin' as const, branch_id: branch.id },
      { email: 'operator@demo.local', password: 'demo-operator-pass', role: 'operator' as const, branch_id: branch.id },
    ];
    const staffIds: Record<string, number> = {};
    for (const s of staff) {
      const row = await tx
        .insertInto('staff_users')
        .values({
          email: s.email,
          password_hash: await hashPassword(s.password),
          role: s.role,
          branch_id: s.branch_id,
          permissions:
            s.role === 'operator'
              ? ['orders:read', 'orders:write', 'clients:read', 'clients:write', 'webhooks:manage']
              : [],
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      staffIds[s.role] = row.id;
    }
    await tx
      .insertInto('staff_user_exchanges')
      .values({ staff_user_id: staffIds.operator, exchange_id: central })
      .execute();

    // Cash tracked at the Airport Desk (docs/cash.md), so the Cash page, the Home page's low-cash list and the
    // partners' `reserve` have something to show: an opening float counted in by the admin, yen below its watermark.
    // The Central Exchange tracks none, as a new office starts.
    const floats = [
      { currency: c.EUR, balance: '12000', watermark: '2000' },
      { currency: c.JPY, balance: '450000', watermark: '500000' },
    ];
    await tx
      .insertInto('cash_positions')
      .values(
        floats.map((f) => ({
          exchange_id: airport,
          currency_id: f.currency,
          balance: f.balance,
          low_watermark: f.watermark,
          updated_at: now,
        })),
      )
      .execute();
    await tx
      .insertInto('cash_movements')
      .values(
        floats.map((f) => ({
          exchange_id: airport,
          currency_id: f.currency,
          kind: 'deposit' as const,
          amount: f.balance,
          balance_after: f.balance,
          staff_user_id: staffIds.admin,
          reason: 'Opening float',
          created_at: now,
        })),
      )
      .execute();

    const keys: DemoCredentials['keys'] = [];
    for (const [type, owner, name] of [
      ['branch', staffIds.superadmin, 'Demo branch key'],
      ['public', staffIds.superadmin, 'Demo public key'],
      ['personal', staffIds.operator, 'Demo operator personal key'],
    ] as const) {
      const { rawKey } = await issueApiKey(tx, {
        name,
        type,
        staffUserId: owner,
        branchId: type === 'personal' ? null : branch.id,
      });
      keys.push({ type, rawKey });
    }
    return { staff: staff.map(({ email, password, role }) => ({ email, password, role })), keys };
  });
}

const HOUR = 3_600_000;

/**
 * Thirty days of Central Exchange's USD → EUR, a rate every two hours, as if it had followed a market reference at
 * −1 % (rounded down to 4 decimals) until its rate was fixed at today's 0.9215: so the pricing drawer's chart has a
 * month to draw in the demo (and in docs/images/offer-rate-chart.png). The reference wanders a few pips a step
 * around 0.93, the same every start (a fixed pseudo-random sequence), walking back in time from 0.9309.
 */
function demoRateHistory(offerId: number, now: Date) {
  const steps = 30 * 12;
  let seed = 20_261_202;
  const next = () => {
    // Park and Miller's generator: its products stay below 2^53, exact in a double.
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  // In pips (0.0001 EUR): the newest point first, each older one a step away, pulled gently back to 0.9300.
  const pips = [9309];
  for (let i = 1; i <= steps; i++) {
    const last = pips[i - 1]!;
    pips.push(last + Math.round((next() - 0.5) * 16) + Math.round((9300 - last) / 12));
  }
  return pips.reverse().map((p, i) => {
    const reference = new Dec(p).div(10_000);
    return {
      offer_id: offerId,
      rate: reference.times('0.99').toDecimalPlaces(4, ROUND_DOWN).toFixed(),
      reference_rate: reference.toFixed(),
      created_at: new Date(now.getTime() - (steps - i) * 2 * HOUR),
    };
  });
}
