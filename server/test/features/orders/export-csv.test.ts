import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../../../src/http/csv.js';
import { Dec } from '../../../src/features/pricing/decimal.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

/** More orders in branch 2 than one export page (1,000) holds twice, in every status and of both sources. */
const SEEDED = 2_345;

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(cell, 'the last line ends with CRLF').toBe('');
  expect(row).toEqual([]);
  return rows;
}

const exportCsv = (token: string, query: Record<string, string>, headers?: Record<string, string>) =>
  call(server, 'GET', '/admin/orders', { token, query, headers });

/** Every page of the JSON list for a filter and sort, by cursor. */
async function jsonList(token: string, query: Record<string, string>) {
  const rows: Record<string, any>[] = [];
  let cursor: string | undefined;
  do {
    const res = await call(server, 'GET', '/admin/orders', {
      token,
      query: { ...query, limit: '100', ...(cursor ? { cursor } : {}) },
    });
    expect(res.status, res.text).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.meta.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

/** What the CSV says of an order the JSON list shows: its JSON numbers' digits, without an exponent. */
function expectedCells(o: Record<string, any>, clientName: (o: Record<string, any>) => string | null): string[] {
  const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return [
    o.id,
    o.hashedId,
    o.createdAt,
    o.updatedAt,
    o.status,
    o.source,
    o.operationType,
    o.branchId,
    o.cashbox.id,
    o.currency1.code,
    o.currency2.code,
    digits(o.clientAmount),
    digits(o.exchangeAmount),
    o.rate === undefined ? null : digits(o.rate),
    null,
    o.user?.id,
    clientName(o),
    o.createdBy?.id,
    o.createdBy?.email,
    o.expiresAt,
  ].map((v: string | number | null | undefined, i) => (i === 16 && typeof v === 'string' ? unformula(v) : text(v)));
}

const digits = (n: number) => new Dec(String(n)).toFixed();

/** The CSV's defused form of a typed text that starts like a formula. */
const unformula = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const { C } = world.exchanges;
  const { USD, EUR } = world.currencies;
  await sql`
    insert into orders (hashed_id, branch_id, cashbox_id, currency1_id, currency2_id, client_amount, exchange_amount,
      status, operation_type, source, created_by_staff_id, created_at, updated_at)
    select 'seed-' || g, ${world.branches.b2}::int, ${C}::int, ${USD}::int, ${EUR}::int,
      (1 + g * 7919 % 100000) / 1000.0, (1 + g * 104729 % 90000) / 100000000.0,
      (array['ORDERINIT','CLIENTPAYMENTWAIT','EXCHANGEPAYMENTWAIT','CASHOUT','SUCCESS','CANCEL'])[1 + g % 6],
      'finop', case when g % 3 = 0 then 'counter' else 'partner' end,
      case when g % 3 = 0 then ${world.staff.admin2.id}::int end,
      timestamptz '2026-01-01' + g * interval '1 minute', timestamptz '2026-01-01' + g * interval '1 minute' + interval '1 second'
    from generate_series(1, ${SEEDED}::int) g`.execute(server.db);
});
afterAll(() => server?.close());

describe('GET /admin/orders?format=csv', () => {
  it('is every order of the JSON list, row for row, across export pages, with a header and a file name', async () => {
    const query = { sort: '[["createdAt","DESC"]]' };
    const res = await exportCsv(tokens.admin2, { ...query, format: 'csv' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([
      'id',
      'hashedId',
      'createdAt',
      'updatedAt',
      'status',
      'source',
      'operationType',
      'branchId',
      'exchangeId',
      'currency1',
      'currency2',
      'clientAmount',
      'exchangeAmount',
      'rate',
      'referenceRate',
      'clientId',
      'clientName',
      'createdById',
      'createdByEmail',
      'expiresAt',
    ]);
    const json = await jsonList(tokens.admin2, query);
    expect(json).toHaveLength(SEEDED);
    expect(rows).toEqual(json.map((o) => expectedCells(o, () => null)));
    // Exact decimals, as stored: 8 decimals of a tiny amount, no exponent, no float noise.
    const seeded = await server.db
      .selectFrom('orders')
      .select(['id', sql<string>`exchange_amount::text`.as('amount')])
      .where('hashed_id', '=', 'seed-7')
      .executeTakeFirstOrThrow();
    // 1 + 7 × 104729 mod 90000 = 13104 hundred-millionths
    expect(rows.find((r) => r[0] === String(seeded.id))![12]).toBe('0.00013104');
    expect(new Dec(seeded.amount).eq('0.00013104')).toBe(true);
  });

  it('applies the filters of the list (source, status, a createdAt window), also when asked by Accept: text/csv', async () => {
    const query = {
      filter: JSON.stringify({ source: 'counter', status: 'CASHOUT', createdAt: { gte: '2026-01-01T10:00:00Z' } }),
      sort: '[["clientAmount","ASC"]]',
    };
    const res = await exportCsv(tokens.admin2, query, { accept: 'text/csv' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.text).slice(1);
    const json = await jsonList(tokens.admin2, query);
    expect(json.length).toBeGreaterThan(50);
    expect(rows).toEqual(json.map((o) => expectedCells(o, () => null)));
    expect(rows.every((r) => r[5] === 'counter' && r[4] === 'CASHOUT' && r[18] === world.staff.admin2.email)).toBe(
      true,
    );
    // format=json wins over the header; a bad filter is the list's 400, not a broken download.
    const asJson = await exportCsv(tokens.admin2, { ...query, format: 'json' }, { accept: 'text/csv' });
    expect(asJson.headers.get('content-type')).toMatch(/^application\/json/);
    const bad = await exportCsv(tokens.admin2, { filter: '{"price":1}', format: 'csv' });
    expect([bad.status, bad.headers.get('content-type')]).toEqual([400, 'application/json; charset=utf-8']);
    expect((await exportCsv(tokens.admin2, { format: 'xlsx' })).status).toBe(400);
  });

  it('quotes per RFC 4180 and defuses formulas in typed text; numbers stay numbers', async () => {
    const names = [
      ['=HYPERLINK("http://x")', 'Evil'],
      ['@SUM(A1)', 'Comma, Quote "Q"'],
      ['+1', '-2'],
    ];
    const ids: number[] = [];
    for (const [i, [firstName, lastName]] of names.entries()) {
      const client = await call(server, 'POST', '/admin/clients', {
        token: tokens.operatorA,
        body: { firstName, lastName, email: `csv${i}@example.com`, phone: `+12025550${100 + i}` },
      });
      expect(client.status, client.text).toBe(201);
      const order = await call(server, 'POST', '/admin/orders', {
        token: tokens.operatorA,
        body: orderBody(world, { user: { id: client.body.id }, comment: 'x' }),
      });
      expect(order.status, order.text).toBe(201);
      ids.push(order.body.id);
    }
    const res = await exportCsv(tokens.operatorA, { format: 'csv', filter: JSON.stringify({ source: 'counter' }) });
    const text = res.text;
    expect(text).toContain(`,"'=HYPERLINK(""http://x"") Evil",`);
    expect(text).toContain(`,"'@SUM(A1) Comma, Quote ""Q""",`);
    expect(text).toContain(`,'+1 -2,`);
    const rows = parseCsv(text).slice(1);
    expect(rows.map((r) => Number(r[0]))).toEqual(ids);
    const json = await jsonList(tokens.operatorA, { filter: JSON.stringify({ source: 'counter' }) });
    expect(rows).toEqual(json.map((o) => expectedCells(o, (x) => x.client?.name ?? null)));
    // Only the caller's scope: operator A sees none of branch 2's seeded orders.
    expect(rows.every((r) => r[8] === String(world.exchanges.A))).toBe(true);
  });

  it.each([
    [null, ''],
    [42, '42'],
    ['-12.5', '-12.5'],
    ['-x', "'-x"],
    ['=1+1', "'=1+1"],
    ['\tTab', "'\tTab"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['\rCR', `"'\rCR"`],
  ])('csvCell(%j) is %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('is refused without orders:read and without a token', async () => {
    expect((await call(server, 'GET', '/admin/orders', { query: { format: 'csv' } })).status).toBe(401);
  });
});
