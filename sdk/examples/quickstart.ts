// Quickstart: rates, an estimate, a client and its order, and the order.created webhook received and verified.
// Run from sdk/, after `npm ci` at the repository's root (or `npm install` in a copy of sdk/ alone; tsx is a devDependency),
// with BRANCH holding a secret key (the sk_branch_… that `npm start` prints on its first start):
//   PXS_BASE_URL=http://localhost:3000 PXS_API_KEY=$BRANCH npx tsx examples/quickstart.ts
// (The webhook URL is on this machine: the service must allow it, as `npm start` on the embedded database does:
// WEBHOOK_ALLOW_PRIVATE_URLS=true.)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, PxsError, verifyWebhook, type WebhookEvent } from '@pxs/sdk';

const apiKey = process.env.PXS_API_KEY;
if (!apiKey) {
  console.error(
    'PXS_API_KEY is not set: give it a secret key, e.g. the sk_branch_… that `npm start` prints on its first start:\n' +
      '  PXS_BASE_URL=http://localhost:3000 PXS_API_KEY=sk_branch_… npx tsx examples/quickstart.ts',
  );
  process.exit(2);
}
const pxs = createClient({ baseUrl: process.env.PXS_BASE_URL ?? 'http://localhost:3000', apiKey });

// 1. Rates, and an exact estimate for 100 units of a pair that takes that amount.
const rates = await pxs.listRates();
const rate = rates.find((r) => Number(r.minAmount) <= 100 && Number(r.maxAmount) >= 100);
if (!rate) throw new Error('no offer accepts an amount of 100');
const estimate = await pxs.getEstimate({
  exchangeId: rate.exchangeId,
  sourceCurrencyId: rate.sourceCurrency.id,
  destCurrencyId: rate.destCurrency.id,
  amount: 100,
});
console.log(
  `100 ${estimate.sourceCurrency.ticker} → ${estimate.destAmount} ${estimate.destCurrency.ticker} at exchange ${estimate.exchangeId}`,
);

// 2. A local receiver. verifyWebhook needs the raw bytes of the body: collect them before any JSON parsing.
let secret = '';
let onOrderCreated: (event: WebhookEvent) => void = () => undefined;
const orderCreated = new Promise<WebhookEvent>((resolve) => {
  onOrderCreated = resolve;
});
// node:http ignores a handler's promise, so this one answers every request itself and never rejects.
async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const event = await verifyWebhook(Buffer.concat(chunks), req.headers, secret, { toleranceSeconds: 300 });
    res.writeHead(204).end();
    if (event.event === 'order.created') onOrderCreated(event);
  } catch {
    res.writeHead(400).end(); // not from the service, altered, or replayed
  }
}
const receiver = createServer((req, res) => void receive(req, res));
await new Promise<void>((resolve) => receiver.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
const webhook = await pxs.createWebhook({ url, events: ['order.created'] });
secret = webhook.secretKey; // shown once: keep it in your secret store

try {
  // 3. A client, and an order for it (an idempotency key makes a retry after a lost answer safe).
  const client = await pxs.createClient({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada+${Date.now()}@example.com`,
    phone: '+441234567890',
  });
  const order = await pxs.createOrder(
    {
      cashbox: { id: rate.exchangeId },
      currency1: { id: rate.sourceCurrency.id },
      currency2: { id: rate.destCurrency.id },
      operationType: 'offer',
      clientAmount: 100,
      user: { id: client.id },
    },
    { idempotencyKey: crypto.randomUUID() },
  );
  console.log(`order ${order.id} (${order.status}): ${order.clientAmount} → ${order.exchangeAmount}`);

  // 4. The signed order.created delivery.
  const event = await orderCreated;
  if (event.event === 'order.created')
    console.log(`webhook verified: order.created for order ${event.data.id}, ${event.data.amountDest} to pay out`);
} catch (err) {
  if (err instanceof PxsError) console.error(`API error ${err.statusCode}: ${err.message}`, err.errors);
  process.exitCode = 1;
} finally {
  await pxs.deleteWebhook(webhook.id);
  receiver.close();
}
