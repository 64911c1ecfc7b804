import { Type } from 'typebox';
import { branchScope } from '../../auth/principal.js';
import type { Database } from '../../db/database.js';
import { partnerRoute } from '../../auth/route-access.js';
import type { App } from '../../http/types.js';
import { Dec, normalize, ROUND_DOWN } from '../pricing/decimal.js';
import { listRates, type RateFilter } from '../offers/service.js';
import { RatesQuery } from './schemas.js';
import type { CatalogSnapshots } from './snapshot-store.js';
import { cachedText, fromSnapshot } from './snapshot-bodies.js';
import { ratesOf } from './snapshot-reads.js';
import type { Available } from './snapshot-build.js';
import { reserve } from './presenters.js';
import { withAvailable } from './service.js';

type RateRow = Awaited<ReturnType<typeof listRates>>[number];
// A row without `available` is an untracked currency's.
type ReservedRate = RateRow & Partial<Available>;

/** What BestChange's export format 1.1 asks for; `charset` is left out, the XML declaration names UTF-8 (RFC 7303 3.2). */
export const RATES_XML_TYPE = 'application/xml';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const element = (name: string, text: string) => `<${name}>${escape(text)}</${name}>`;

/** What one order pays out at most, in the destination currency: rounded down, as pricing rounds a payout. */
function payoutOf(r: RateRow, source: string): string {
  return normalize(new Dec(source).times(r.rate).toDecimalPlaces(r.c2_decimals, ROUND_DOWN));
}

/** The `<amount>` of an item: the monitors' reserve, the same figure as the JSON rates' `reserve`. */
export function reserveOf(r: ReservedRate): string {
  return reserve(r.max_amount, r.rate, r.c2_decimals, r.available);
}

/**
 * One offer as the rate monitors' `<item>` (BestChange's export format 1.1): `in` units of `from` buy `out` units of
 * `to` (in is always 1, out the rate exactly as stored), `amount` the reserve, `frommin`/`frommax` the limits in the
 * source currency, `tomin`/`tomax` what the smallest and the largest order pay out, then format 1.0's
 * `minamount`/`maxamount` (the source limits with the currency's code), which monitors that read 1.0 still read.
 * Decimals are written from their strings, never through a float.
 */
export function rateItem(r: ReservedRate): string {
  const min = normalize(r.min_amount);
  const max = normalize(r.max_amount);
  return (
    `<item>${element('from', r.c1_code)}${element('to', r.c2_code)}${element('in', '1')}${element('out', normalize(r.rate))}` +
    `${element('amount', reserveOf(r))}${element('frommin', min)}${element('frommax', max)}` +
    `${element('tomin', payoutOf(r, r.min_amount))}${element('tomax', payoutOf(r, r.max_amount))}` +
    `${element('minamount', `${min} ${r.c1_code}`)}${element('maxamount', `${max} ${r.c1_code}`)}</item>`
  );
}

export function ratesXml(rows: readonly ReservedRate[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rates>\n${rows.map((r) => `${rateItem(r)}\n`).join('')}</rates>\n`;
}

const XmlRates = Type.String({
  description:
    "The offers of GET /partner/public/rates, one `<item>` each, in the fields of BestChange's export format 1.1: " +
    '`<rates><item><from>USD</from><to>EUR</to><in>1</in><out>0.9215</out><amount>9215</amount>' +
    '<frommin>10</frommin><frommax>10000</frommax><tomin>9.21</tomin><tomax>9215</tomax>' +
    '<minamount>10 USD</minamount><maxamount>10000 USD</maxamount></item>…</rates>`',
});

const RatesXmlQuery = Type.Object(
  {
    ...RatesQuery.properties,
    // The document names it through the `apiKeyQuery` security scheme (@fastify/swagger leaves such a parameter out).
    key: Type.Optional(Type.String({ description: 'A public key (`pk_…`) instead of the Authorization header' })),
  },
  { additionalProperties: false },
);

/** The JSON rates' filters, without the key: one body per filter, whichever way the key came. */
const filterOf = ({ exchangeId, sourceCurrencyId, destCurrencyId }: RateFilter): RateFilter => ({
  exchangeId,
  sourceCurrencyId,
  destCurrencyId,
});

/** The rate export that exchange-rate monitors poll (docs/integration.md): the JSON rates' offers and figures, as XML. */
export function ratesXmlRoutes({ db, catalog }: { db: Database; catalog: CatalogSnapshots }) {
  return async function routes(app: App) {
    // keyInQuery: its security is either the header or the query parameter (the `key` parameter says which key types).
    app.get(
      '/public/rates.xml',
      partnerRoute('public')({
        keys: 'any',
        config: { keyInQuery: true, etag: true },
        schema: {
          operationId: 'getRatesXml',
          summary: 'The public rates as XML for rate monitors (any key type in the header, or a public key as ?key=)',
          description:
            "BestChange's exchange rate export format 1.1 (with format 1.0's `minamount`/`maxamount` too), served as " +
            '`application/xml` with an ETag. A rate monitor is given a URL and sends no header: this one route also takes a ' +
            "public key as `?key=pk_…` (the `apiKeyQuery` scheme), counted against that key's rate limit as with the header " +
            'and never written to the logs. A secret key in the URL (`?key=sk_…`) is refused with 400 `errors: {key: "notAllowed"}` ' +
            'without being read; a URL is kept in logs, proxies and browser histories, so roll a secret key sent that way. ' +
            'A key in both the header and the URL is refused with 400 `errors: {key: "ambiguous"}`. ' +
            '`<amount>` is the reserve, as `reserve` of the JSON rates: what the largest order pays out (maxAmount × rate), or ' +
            "the exchange's available cash of the destination currency when that is smaller, rounded down.",
          querystring: RatesXmlQuery,
          response: {
            200: {
              description: 'The rates, in the XML that exchange-rate monitors read',
              content: { [RATES_XML_TYPE]: { schema: XmlRates } },
            },
          },
        },
      }),
      (request, reply) => {
        const f = filterOf(request.query);
        return fromSnapshot(
          catalog.get(request.apiKey.branchId),
          reply,
          (snapshot) =>
            cachedText(
              snapshot,
              `rates.xml ${f.exchangeId} ${f.sourceCurrencyId} ${f.destCurrencyId}`,
              reply,
              RATES_XML_TYPE,
              () => ratesXml(ratesOf(snapshot, f)),
            ),
          async () => {
            const scope = branchScope(request.apiKey);
            return reply.type(RATES_XML_TYPE).send(ratesXml(await withAvailable(db, scope, listRates(db, scope, f))));
          },
        );
      },
    );
  };
}
