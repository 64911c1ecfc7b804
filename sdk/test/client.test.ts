import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../server/test/helpers/fixture.js';
import type { TestServer } from '../../server/test/helpers/server.js';
import type { World } from '../../server/test/helpers/world.js';
import { startReceiver, worker, type Receiver } from '../../server/test/features/webhooks/support.js';
import {
  createClient,
  PxsError,
  verifyWebhook,
  WebhookVerificationError,
  type PxsClient,
  type RetryOptions,
} from '../src/index.js';
import { startProxy, type Step } from './proxy.js';

/**
 * The SDK against the real server (PGlite, or PostgreSQL when DATABASE_URL is set), its real webhook worker and a
 * real local receiver. Every request the SDK sends is recorded, so the last test can prove that every partner
 * operation of sdk/openapi.json was called through it.
 */
let server: TestServer;
let world: World;
let pxs: PxsClient;
let receiver: Receiver;
let stopWorker: (() => Promise<void>) | undefined;
const sent = new Set<string>();

const doc = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
const partnerOperations: { key: string; operationId: string; pattern: RegExp }[] = [];
for (const [path, item] of Object.entries<Record<string, { operationId: string }>>(doc.paths)) {
  if (!path.startsWith('/api/v1/partner/')) continue;
  for (const [method, op] of Object.entries(item)) {
    const pattern = new RegExp(`^${method.toUpperCase()} ${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    partnerOperations.push({ key: `${method.toUpperCase()} ${path}`, operationId: op.operationId, pattern });
  }
}

const recording = (request: Request) => {
  sent.add(`${request.method} ${new URL(request.url).pathname}`);
  return fetch(request);
};

beforeAll(async () => {
  ({ server, world } = await startWorld());
  pxs = createClient({ baseUrl: server.url, apiKey: world.keys.branch, fetch: recording });
  receiver = await startReceiver();
  const w = await worker(server);
  stopWorker = () => w.stop();
});
afterAll(async () => {
  await stopWorker?.();
  await receiver?.close();
  await server?.close();
});

describe('the typed client', () => {
  it("takes the base URL with or without the contract's /api/v1", async () => {
    for (const baseUrl of [`${server.url}/api/v1`, `${server.url}/api/v1/`, `${server.url}/`]) {
      const client = createClient({ baseUrl, apiKey: world.keys.branch, fetch: recording });
      expect(
        (await client.listPublicCurrencies()).map((c) => c.ticker),
        baseUrl,
      ).toContain('USD');
    }
  });

  it('reads the catalogue, estimates exactly and lists the payment methods an order may name', async () => {
    const exchanges = await pxs.listPublicExchanges();
    expect(exchanges.map((e) => e.id)).toContain(world.exchanges.A);
    const currencies = await pxs.listPublicCurrencies();
    expect(currencies.map((c) => c.ticker)).toEqual(expect.arrayContaining(['USD', 'EUR']));
    const rates = await pxs.listRates();
    expect(rates.find((r) => r.offerId === world.offers.aUsdEur)).toMatchObject({ rate: 0.9215 });
    const estimate = await pxs.getEstimate({
      exchangeId: world.exchanges.A,
      sourceCurrencyId: world.currencies.USD,
      destCurrencyId: world.currencies.EUR,
      amount: 100,
    });
    expect(estimate).toMatchObject({ sourceAmount: 100, destAmount: 92.15, offerId: world.offers.aUsdEur });
    const exchange = await pxs.getExchange(world.exchanges.A);
    expect(exchange.id).toBe(world.exchanges.A);
    const methods = await pxs.listPaymentMethods({ filter: '{"isActive":true}' });
    expect(methods.data.map((m) => m.id)).toEqual(
      expect.arrayContaining([world.paymentMethods.cash1, world.paymentMethods.cardA]),
    );
  });

  it('takes a firm quote, reads the events feed, looks clients up, exports rates as XML; the sandbox is 404 outside a sandbox branch', async () => {
    const quote = await pxs.createQuote({
      exchangeId: world.exchanges.A,
      sourceCurrencyId: world.currencies.USD,
      destCurrencyId: world.currencies.EUR,
      amount: 100,
    });
    expect(quote.quoteId).toEqual(expect.any(String));
    const order = await pxs.createOrder({
      cashbox: { id: world.exchanges.A },
      currency1: { id: world.currencies.USD },
      currency2: { id: world.currencies.EUR },
      operationType: 'offer',
      quoteId: quote.quoteId,
    });
    expect(order.status).toBe('ORDERINIT');
    const feed = await pxs.listEvents({ limit: 100 });
    expect(feed.data.length).toBeGreaterThan(0);
    expect((await pxs.listClients({ limit: 5 })).meta.limit).toBe(5);
    expect(await pxs.getRatesXml()).toContain('<rates>');
    const sandbox = await pxs.moveSandboxOrder(order.id, { status: 'CLIENTPAYMENTWAIT' }).catch((e: unknown) => e);
    expect(sandbox).toBeInstanceOf(PxsError);
    expect((sandbox as PxsError).statusCode).toBe(404);
  });

  it('pages through offers and orders with async iterators', async () => {
    const all = (await pxs.listOffers({ limit: 100 })).data.map((o) => o.id);
    const iterated: number[] = [];
    for await (const offer of pxs.iterateOffers({ limit: 2 })) iterated.push(offer.id);
    expect(iterated).toEqual(all);
    expect(all.length).toBeGreaterThan(2);

    for (let i = 0; i < 3; i += 1) {
      await pxs.createOrder({
        cashbox: { id: world.exchanges.A },
        currency1: { id: world.currencies.USD },
        currency2: { id: world.currencies.EUR },
        operationType: 'offer',
        clientAmount: 10 + i,
      });
    }
    const orders = (await pxs.listOrders({ limit: 100 })).data.map((o) => o.id);
    const pagedOrders: number[] = [];
    for await (const order of pxs.iterateOrders({ limit: 2 })) pagedOrders.push(order.id);
    expect(pagedOrders).toEqual(orders);
    expect(orders.length).toBeGreaterThanOrEqual(3);

    // Starting further in: the first page skips, the next ones follow the cursor without the skip.
    const fromSecond: number[] = [];
    for await (const order of pxs.iterateOrders({ limit: 2, skip: 1 })) fromSecond.push(order.id);
    expect(fromSecond).toEqual(orders.slice(1));
    const offersFromSecond: number[] = [];
    for await (const offer of pxs.iterateOffers({ limit: 2, skip: 1 })) offersFromSecond.push(offer.id);
    expect(offersFromSecond).toEqual(all.slice(1));
  });

  it('creates, reads, updates clients and orders, and cancels an order', async () => {
    const client = await pxs.createClient({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada.sdk@example.com',
      phone: '+441234567890',
    });
    expect(await pxs.getClient(client.id)).toMatchObject({ email: 'ada.sdk@example.com' });
    expect(await pxs.updateClient(client.id, { firstName: 'Augusta' })).toMatchObject({
      firstName: 'Augusta',
      lastName: 'Lovelace',
    });

    const order = await pxs.createOrder({
      cashbox: { id: world.exchanges.A },
      currency1: { id: world.currencies.USD },
      currency2: { id: world.currencies.EUR },
      operationType: 'offer',
      clientAmount: 100,
      user: { id: client.id },
    });
    expect(order).toMatchObject({
      status: 'ORDERINIT',
      clientAmount: 100,
      exchangeAmount: 92.15,
      user: { id: client.id },
    });
    expect((await pxs.getOrder(order.id)).hashedId).toBe(order.hashedId);
    expect((await pxs.cancelOrder(order.id)).status).toBe('CANCEL');
  });

  it('throws a PxsError with statusCode, message and the errors map', async () => {
    const missing = await pxs.getOrder(2147483000).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PxsError);
    expect(missing).toMatchObject({ statusCode: 404, errors: { order: 'notFound' } });
    expect((missing as PxsError).requestId).toMatch(/.+/);

    const invalid = await pxs
      .createClient({ firstName: 'A', lastName: 'B', email: 'not-an-email', phone: '+441234567890' })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ statusCode: 400, errors: { email: expect.any(String) } });
    expect((invalid as PxsError).message.length).toBeGreaterThan(0);

    const readOnly = createClient({ baseUrl: server.url, apiKey: world.keys.public, fetch: recording });
    const forbidden = await readOnly
      .createOrder({
        cashbox: { id: world.exchanges.A },
        currency1: { id: world.currencies.USD },
        currency2: { id: world.currencies.EUR },
        operationType: 'offer',
        clientAmount: 10,
      })
      .catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ statusCode: 403 });
    const unknownKey = await createClient({ baseUrl: server.url, apiKey: 'sk_branch_00000000000000000000000000000000' })
      .listOffers()
      .catch((e: unknown) => e);
    expect(unknownKey).toMatchObject({ statusCode: 401, message: 'Invalid or revoked API key' });
  });
});

describe('webhooks through the SDK, delivered by the real worker', () => {
  it('manages a webhook and verifies the order.created delivery; refuses altered, wrongly keyed or stale ones', async () => {
    const hook = await pxs.createWebhook({ url: receiver.url, events: ['order.created', 'order.cancelled'] });
    expect(hook.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect((await pxs.listWebhooks()).data.map((w) => w.id)).toContain(hook.id);
    expect((await pxs.getWebhook(hook.id)).url).toBe(receiver.url);
    expect((await pxs.updateWebhook(hook.id, { events: ['order.created'] })).events).toEqual(['order.created']);

    const order = await pxs.createOrder({
      cashbox: { id: world.exchanges.A },
      currency1: { id: world.currencies.USD },
      currency2: { id: world.currencies.EUR },
      operationType: 'offer',
      clientAmount: 50,
    });
    const [delivered] = await receiver.waitFor(1, 30_000);

    const event = await verifyWebhook(delivered.body, delivered.headers, hook.secretKey);
    expect(event.event).toBe('order.created');
    if (event.event !== 'order.created') throw new Error('narrowing');
    expect(event.data).toEqual({
      id: order.id,
      status: 'ORDERINIT',
      amountSource: '50',
      amountDest: '46.07',
      expiresAt: order.expiresAt,
    });

    // The contract's header alone (no Standard Webhooks headers) verifies too; bytes work as well as text.
    const contractOnly = { 'x-webhook-signature': delivered.headers['x-webhook-signature'] as string };
    expect((await verifyWebhook(new TextEncoder().encode(delivered.body), contractOnly, hook.secretKey)).event).toBe(
      'order.created',
    );
    // During a rotation several signatures may come: any one matching is enough.
    const rotated = {
      ...delivered.headers,
      'webhook-signature': `v1,${btoa('x'.repeat(32))} ${delivered.headers['webhook-signature'] as string}`,
    };
    expect((await verifyWebhook(delivered.body, rotated, hook.secretKey)).event).toBe('order.created');

    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: unknown) => (e instanceof WebhookVerificationError ? e.reason : String(e)),
      );
    const altered = delivered.body.replace('"50"', '"5000"');
    expect(altered).not.toBe(delivered.body);
    expect(await refusal(verifyWebhook(altered, delivered.headers, hook.secretKey))).toBe('invalidSignature');
    expect(await refusal(verifyWebhook(altered, contractOnly, hook.secretKey))).toBe('invalidSignature');
    expect(await refusal(verifyWebhook(delivered.body, delivered.headers, 'f'.repeat(64)))).toBe('invalidSignature');
    expect(await refusal(verifyWebhook(delivered.body, contractOnly, 'f'.repeat(64)))).toBe('invalidSignature');
    const sentAt = Number(delivered.headers['webhook-timestamp']) * 1000;
    expect(
      await refusal(verifyWebhook(delivered.body, delivered.headers, hook.secretKey, { now: sentAt + 301_000 })),
    ).toBe('timestampOutOfRange');
    expect(
      await refusal(
        verifyWebhook(delivered.body, delivered.headers, hook.secretKey, {
          now: sentAt + 60_000,
          toleranceSeconds: 30,
        }),
      ),
    ).toBe('timestampOutOfRange');
    expect(await refusal(verifyWebhook(delivered.body, {}, hook.secretKey))).toBe('missingSignature');

    const deliveries = await pxs.listWebhookDeliveries(hook.id);
    const deliveryId = delivered.headers['x-webhook-delivery'] as string;
    expect(deliveries.data.map((d) => d.id)).toContain(deliveryId);
    expect((await pxs.getWebhookDelivery(hook.id, deliveryId)).payload).toEqual(JSON.parse(delivered.body));
    expect((await pxs.retryWebhookDelivery(hook.id, deliveryId)).id).toBe(deliveryId);
    expect((await pxs.reactivateWebhook(hook.id)).isActive).toBe(true);
    const rotatedHook = await pxs.rotateWebhookSecret(hook.id);
    expect(rotatedHook.secretKey).not.toBe(hook.secretKey);
    await pxs.deleteWebhook(hook.id);
    expect(await pxs.getWebhook(hook.id).catch((e: PxsError) => e.statusCode)).toBe(404);
  });
});

describe('retries', () => {
  const order = () => ({
    cashbox: { id: world.exchanges.A },
    currency1: { id: world.currencies.USD },
    currency2: { id: world.currencies.EUR },
    operationType: 'offer' as const,
    clientAmount: 20,
  });
  async function through(steps: Step[], retry: RetryOptions | false = { retries: 2, baseDelayMs: 10 }) {
    const proxy = await startProxy(server.url, (_req, i) => steps[i] ?? 'forward');
    return { proxy, sdk: createClient({ baseUrl: proxy.url, apiKey: world.keys.branch, retry }) };
  }
  const limited = (seconds: number): Step => ({
    status: 429,
    headers: { 'retry-after': String(seconds) },
    body: { statusCode: 429, message: 'Rate limit exceeded', retryAfter: seconds },
  });
  const unavailable: Step = { status: 503, body: { statusCode: 503, message: 'Service Unavailable' } };

  it('retries a 429 after its Retry-After, a POST included (a rate-limited request was not handled)', async () => {
    const { proxy, sdk } = await through([limited(1), 'forward', limited(1), 'forward']);
    try {
      expect((await sdk.listOffers()).data.length).toBeGreaterThan(0);
      const created = await sdk.createOrder(order());
      expect(proxy.hits.map((h) => h.method)).toEqual(['GET', 'GET', 'POST', 'POST']);
      expect(proxy.hits[1].at - proxy.hits[0].at).toBeGreaterThanOrEqual(950);
      expect(proxy.hits[3].at - proxy.hits[2].at).toBeGreaterThanOrEqual(950);
      expect((await pxs.getOrder(created.id)).id).toBe(created.id);
    } finally {
      await proxy.close();
    }
  });

  it('does not wait for a Retry-After longer than maxDelayMs: the 429 reaches the caller with retryAfter', async () => {
    const { proxy, sdk } = await through([limited(120)], { retries: 2, baseDelayMs: 10, maxDelayMs: 5_000 });
    try {
      const error = await sdk.listOffers().catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 429, retryAfter: 120, message: 'Rate limit exceeded' });
      expect(proxy.hits).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('retries a 503 and a lost connection for a GET, bounded by retries', async () => {
    const { proxy, sdk } = await through([unavailable, 'drop', 'forward', unavailable, unavailable, unavailable]);
    try {
      expect((await sdk.getExchange(world.exchanges.A)).id).toBe(world.exchanges.A);
      expect(proxy.hits).toHaveLength(3);
      expect(await sdk.getExchange(world.exchanges.A).catch((e: PxsError) => e.statusCode)).toBe(503);
      expect(proxy.hits).toHaveLength(6);
    } finally {
      await proxy.close();
    }
  });

  it('never repeats a POST after a 503 or a lost connection unless it carries an idempotency key', async () => {
    const { proxy, sdk } = await through([unavailable, 'drop', unavailable, 'forward']);
    try {
      expect(await sdk.createOrder(order()).catch((e: PxsError) => e.statusCode)).toBe(503);
      await expect(sdk.createOrder(order())).rejects.toThrow();
      expect(proxy.hits).toHaveLength(2);
      const created = await sdk.createOrder(order(), { idempotencyKey: 'sdk-test-key-1' });
      expect(created.status).toBe('ORDERINIT');
      expect(proxy.hits.slice(2).map((h) => h.idempotencyKey)).toEqual(['sdk-test-key-1', 'sdk-test-key-1']);
    } finally {
      await proxy.close();
    }
  });

  it('retries nothing with retry: false', async () => {
    const { proxy, sdk } = await through([limited(1)], false);
    try {
      expect(await sdk.listOffers().catch((e: PxsError) => e.statusCode)).toBe(429);
      expect(proxy.hits).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

describe('examples/quickstart.ts', () => {
  const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
  const script = fileURLToPath(new URL('../examples/quickstart.ts', import.meta.url));
  const QUICKSTART = /((?:[A-Z_]+=\S+ )*)npx tsx examples\/quickstart\.ts/g;

  /** The command as the README, docs/sdk.md and sdk/README.md print it: one command, naming the key and the address. */
  function printedCommand(): Record<string, string> {
    const printed = ['../../README.md', '../../docs/sdk.md', '../README.md'].flatMap((file) =>
      [...readFileSync(new URL(file, import.meta.url), 'utf8').matchAll(QUICKSTART)].map((m) => m[1].trim()),
    );
    expect(printed.length).toBeGreaterThanOrEqual(3);
    expect(new Set(printed).size, printed.join(' | ')).toBe(1);
    const env = Object.fromEntries(printed[0].split(' ').map((a) => a.split('=') as [string, string]));
    expect(env).toEqual({ PXS_BASE_URL: 'http://localhost:3000', PXS_API_KEY: '$BRANCH' });
    return env;
  }

  it('runs end to end as printed in the docs: rates, estimate, client, order, and the verified order.created webhook', async () => {
    const printed = printedCommand();
    // As printed, on this test's server, with BRANCH holding a branch key as `npm start` prints one.
    const env = {
      PXS_BASE_URL: printed.PXS_BASE_URL.replace('http://localhost:3000', server.url),
      PXS_API_KEY: printed.PXS_API_KEY.replace('$BRANCH', world.keys.branch),
    };
    const { stdout } = await promisify(execFile)(process.execPath, [tsx, script], {
      env: { ...process.env, ...env },
      cwd: fileURLToPath(new URL('../examples/', import.meta.url)),
      timeout: 90_000,
    });
    expect(stdout).toMatch(/^100 USD → [\d.]+ EUR at exchange \d+$/m);
    expect(stdout).toMatch(/^order \d+ \(ORDERINIT\): 100 → [\d.]+$/m);
    expect(stdout).toMatch(/^webhook verified: order.created for order \d+, [\d.]+ to pay out$/m);
  }, 120_000);

  it('says which variable to set when PXS_API_KEY is missing, instead of a stack trace', async () => {
    const { PXS_API_KEY: _unset, ...env } = process.env;
    const failed = await promisify(execFile)(process.execPath, [tsx, script], {
      env: { ...env, PXS_BASE_URL: server.url },
      timeout: 60_000,
    }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toMatch(/^PXS_API_KEY is not set/);
    expect(failed?.stderr).toContain(
      'PXS_BASE_URL=http://localhost:3000 PXS_API_KEY=sk_branch_… npx tsx examples/quickstart.ts',
    );
    expect(failed?.stderr).not.toMatch(/\bat \S+ \(/);
  }, 90_000);
});

describe('coverage', () => {
  it('called every partner operation of the document through the SDK, and has a method named after each', () => {
    expect(partnerOperations.length).toBeGreaterThan(20);
    const notCalled = partnerOperations.filter((op) => ![...sent].some((s) => op.pattern.test(s))).map((op) => op.key);
    expect(notCalled).toEqual([]);
    const noMethod = partnerOperations
      .filter((op) => typeof (pxs as Record<string, unknown>)[op.operationId] !== 'function')
      .map((op) => op.operationId);
    expect(noMethod, 'add a method to sdk/src/client.ts for each new partner operation').toEqual([]);
  });
});
