import { createServer } from 'node:http';

/** Baseline (a): the ceiling of this runtime — a bare node:http server answering fixed JSON. */
const body = JSON.stringify({
  data: Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    currency1: { id: 1, code: 'USD', name: 'US Dollar' },
    currency2: { id: 2, code: 'EUR', name: 'Euro' },
    rate: 0.9215,
    minAmount: 10,
    maxAmount: 10000,
    isActive: true,
    exchange: { id: 1 },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  })),
  meta: { total: 120, skip: 0, limit: 20 },
});

createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
