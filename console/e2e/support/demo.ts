import type { DemoServer } from './server';

/** The demo's exchanges and currencies as the partner API names them (ids are looked up, never assumed). */
export async function demoCatalog(server: DemoServer) {
  const exchanges = (await server.partner('GET', '/public/exchanges', server.keys.public)).body as {
    id: number;
    name: string;
  }[];
  const currencies = (await server.partner('GET', '/public/currencies', server.keys.public)).body as {
    id: number;
    ticker: string;
  }[];
  const exchange = (name: string) => exchanges.find((e) => e.name === name)!.id;
  const currency = (code: string) => currencies.find((c) => c.ticker === code)!.id;
  return { central: exchange('Central Exchange'), airport: exchange('Airport Desk'), currency };
}

/** A partner's order, as its app would create it: amount in the currency the client gives. */
export async function partnerOrder(
  server: DemoServer,
  body: { cashbox: number; from: number; to: number; amount: number },
) {
  const res = await server.partner('POST', '/orders', server.keys.branch, {
    cashbox: { id: body.cashbox },
    currency1: { id: body.from },
    currency2: { id: body.to },
    operationType: 'offer',
    clientAmount: body.amount,
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; hashedId: string; status: string };
}
