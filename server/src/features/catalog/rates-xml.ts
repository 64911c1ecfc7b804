import { Type } from 'typebox';
import { branchScope } from '../../auth/principal.js';
import type { Database } from '../../db/database.js';
import { errorResponses } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Dec, normalize, ROUND_DOWN } from '../pricing/decimal.js';
import { listRates } from './offers/repository.js';
import { RatesQuery } from './schemas.js';
import type { CatalogSnapshots } from './snapshot/store.js';
import { ratesOf } from './snapshot/reads.js';

type RateRow = Awaited<ReturnType<typeof listRates>>[number];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&apos;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const element = (name: string, text: string) => `<${name}>${escape(text)}</${name}>`;

/**
 * One offer as the rate monitors' `<item>`: `in` units of `from` buy `out` units of `to` (in is always 1, out
 * the rate exactly as stored), `amount` the most one order pays out (maxAmount × rate, rounded down to the
 * destination currency's decimals), the limits in the source currency with its code. Decimals are written from
 * their strings, never through a float.
 */
export function rateItem(r: RateRow): string {
  const amount = new Dec(r.max_amount).times(r.rate).toDecimalPlaces(r.c2_decimals, ROUND_DOWN);
  return `<item>${element('from', r.c1_code)}${element('to', r.c2_code)}${element('in', '1')}${element('out', normalize(r.rate))}`
    + `${element('amount', normalize(amount))}${element('minamount', `${normalize(r.min_amount)} ${r.c1_code}`)}`
    + `${element('maxamount', `${normalize(r.max_amount)} ${r.c1_code}`)}</item>`;
}

export function ratesXml(rows: readonly RateRow[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rates>\n${rows.map((r) => `${rateItem(r)}\n`).join('')}</rates>\n`;
}

const XmlRates = Type.String({
  description: 'The offers of GET /partner/public/rates, one `<item>` each: '
    + '`<rates><item><from>USD</from><to>EUR</to><in>1</in><out>0.9215</out><amount>9215</amount>'
    + '<minamount>10 USD</minamount><maxamount>10000 USD</maxamount></item>…</rates>`',
});

/** The rate export that exchange-rate monitors poll (issue 24): the JSON rates' offers and figures, as XML. */
export function ratesXmlRoutes({ db, catalog }: { db: Database; catalog: CatalogSnapshots }) {
  return async function routes(app: App) {
    app.get('/public/rates.xml', {
      config: { publicKeyAllowed: true, etag: true },
      schema: {
        operationId: 'getRatesXml', tags: ['public'], summary: 'The public rates as XML for rate monitors (any key type)', security: [{ apiKey: [] }], querystring: RatesQuery,
        response: {
          200: { description: 'The rates, in the XML that exchange-rate monitors read', content: { 'application/xml': { schema: XmlRates } } },
          ...errorResponses(400, 401, 429),
        },
      },
    }, async (request, reply) => {
      const snapshot = await catalog.get(request.apiKey.branchId);
      const rows = snapshot ? ratesOf(snapshot, request.query) : await listRates(db, branchScope(request.apiKey), request.query);
      return reply.type('application/xml; charset=utf-8').send(ratesXml(rows));
    });
  };
}
