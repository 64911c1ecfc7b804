import type { FastifyReply } from 'fastify';
import { branchScope, type KeyPrincipal } from '../../auth/principal.js';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import type { ListParams } from '../../db/list.js';
import { parseListQuery, listMeta } from '../../http/list-query.js';
import { partnerRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { amountFromJson } from '../pricing/decimal.js';
import { Type } from 'typebox';
import { listOfferedCurrencies } from '../currencies/service.js';
import { findPublicExchange, listPublicExchanges } from '../exchanges/service.js';
import { listPartnerOffers as listOffers, listRates } from '../offers/service.js';
import * as present from './presenters.js';
import {
  EstimateRequest,
  EstimateResult,
  Exchange,
  PartnerOfferList,
  PublicCurrency,
  PublicExchange,
  PublicRate,
  RatesQuery,
} from './schemas.js';
import { ratesXmlRoutes } from './rates-xml.js';
import { quote, withAvailable, type CatalogSnapshots } from './service.js';
import { cachedBody, fromSnapshot, sendKept } from './snapshot-bodies.js';
import { offersPageOf } from './snapshot-offers-page.js';
import { ratesOf } from './snapshot-reads.js';
import { OFFER_LIST } from '../offers/schemas.js';

/** The read side: exchanges, currencies, rates, offers and the estimate. Catalog data is branch-wide. */
export function catalogRoutes({ db, catalog }: { db: Database; catalog: CatalogSnapshots }) {
  return async function routes(app: App) {
    // Each read answers from the branch's snapshot when one may be trusted, else with its queries.
    const publicRoute = partnerRoute('public');
    const route = partnerRoute('catalog');

    app.get(
      '/public/exchanges',
      publicRoute({
        keys: 'any',
        config: { etag: true },
        schema: {
          operationId: 'listPublicExchanges',
          summary: "Exchange offices of the key's branch",
          response: { 200: Type.Array(PublicExchange) },
        },
      }),
      (request, reply) =>
        fromSnapshot(
          catalog.get(request.apiKey.branchId),
          reply,
          (snapshot) => cachedBody(snapshot, 'exchanges', reply, () => snapshot.publicExchanges),
          async () => (await listPublicExchanges(db, branchScope(request.apiKey))).map(present.publicExchange),
        ),
    );

    app.get(
      '/public/currencies',
      publicRoute({
        keys: 'any',
        config: { etag: true },
        schema: {
          operationId: 'listPublicCurrencies',
          summary: 'Currencies of the active offers of the branch',
          response: { 200: Type.Array(PublicCurrency) },
        },
      }),
      (request, reply) =>
        fromSnapshot(
          catalog.get(request.apiKey.branchId),
          reply,
          (snapshot) => cachedBody(snapshot, 'currencies', reply, () => snapshot.publicCurrencies),
          async () => (await listOfferedCurrencies(db, branchScope(request.apiKey))).map(present.publicCurrency),
        ),
    );

    app.get(
      '/public/rates',
      publicRoute({
        keys: 'any',
        config: { etag: true },
        schema: {
          operationId: 'listRates',
          summary: 'Rates of the active offers of active exchanges',
          querystring: RatesQuery,
          response: { 200: Type.Array(PublicRate) },
        },
      }),
      (request, reply) => {
        const q = request.query;
        return fromSnapshot(
          catalog.get(request.apiKey.branchId),
          reply,
          (snapshot) =>
            cachedBody(snapshot, `rates ${q.exchangeId} ${q.sourceCurrencyId} ${q.destCurrencyId}`, reply, () =>
              ratesOf(snapshot, q).map(present.rate),
            ),
          async () => {
            const scope = branchScope(request.apiKey);
            return (await withAvailable(db, scope, listRates(db, scope, q))).map(present.rate);
          },
        );
      },
    );

    app.post(
      '/public/estimate',
      publicRoute({
        keys: 'any',
        errors: [404],
        schema: {
          operationId: 'getEstimate',
          summary: 'Exact estimate for a currency pair at an exchange',
          body: EstimateRequest,
          response: { 200: EstimateResult },
        },
      }),
      (request) => {
        const body = request.body;
        const req = {
          exchangeId: body.exchangeId,
          sourceCurrencyId: body.sourceCurrencyId,
          destCurrencyId: body.destCurrencyId,
          amount: amountFromJson(body.amount),
          direction: body.direction ?? ('source' as const),
        };
        const scope = branchScope(request.apiKey);
        // From a built snapshot the estimate is made and returned at once, without a promise.
        const ready = catalog.get(request.apiKey.branchId);
        const q =
          ready instanceof Promise
            ? ready.then((snapshot) => quote(db, scope, req, snapshot))
            : quote(db, scope, req, ready);
        return q instanceof Promise ? q.then(present.estimate) : present.estimate(q);
      },
    );

    app.get(
      '/exchanges/:id',
      route({
        keys: 'secret',
        errors: [404],
        config: { etag: true },
        schema: {
          operationId: 'getExchange',
          summary: 'One exchange office',
          params: IdParams,
          response: { 200: Exchange },
        },
      }),
      async (request) => {
        const snapshot = await catalog.get(request.apiKey.branchId);
        const row = snapshot
          ? snapshot.exchanges.get(request.params.id)
          : await findPublicExchange(db, branchScope(request.apiKey), request.params.id);
        if (!row) throw notFound('exchange');
        return present.exchange(row);
      },
    );

    app.get(
      '/offers',
      route({
        keys: 'secret',
        config: { etag: true },
        schema: {
          operationId: 'listOffers',
          summary: 'Offers of the branch, paginated',
          querystring: ListQuery,
          response: { 200: PartnerOfferList },
        },
      }),
      (request, reply) => {
        // Pages are kept by their query string as sent: a page polled again is sent without reading its query again
        // (the same text on the same snapshot was parsed once, and only pages without a cursor are kept).
        const at = request.url.indexOf('?');
        const key = at === -1 ? 'offers' : `offers ${request.url.slice(at + 1)}`;
        const ready = catalog.get(request.apiKey.branchId);
        if (ready && !(ready instanceof Promise) && sendKept(ready, key, reply)) return;
        return offersPage(parseListQuery(request.query, OFFER_LIST), request.apiKey, reply, key, ready);
      },
    );

    const offersPage = async (
      params: ListParams,
      principal: KeyPrincipal,
      reply: FastifyReply,
      key: string,
      ready: ReturnType<CatalogSnapshots['get']>,
    ) => {
      const snapshot = await ready;
      // Bodies are kept for pages without a cursor; a cursor whose values are not in plain form goes to the database.
      if (snapshot && params.cursor === undefined) {
        return cachedBody(snapshot, key, reply, () => {
          const page = offersPageOf(snapshot, params)!;
          return { data: page.rows.map(present.partnerOffer), meta: listMeta(page, params) };
        });
      }
      const fromMemory = snapshot && offersPageOf(snapshot, params);
      if (fromMemory) return { data: fromMemory.rows.map(present.partnerOffer), meta: listMeta(fromMemory, params) };
      const scope = branchScope(principal);
      const page = await listOffers(db, scope, params);
      const rows = await withAvailable(db, scope, Promise.resolve(page.rows));
      return { data: rows.map(present.partnerOffer), meta: listMeta(page, params) };
    };

    await ratesXmlRoutes({ db, catalog })(app);
  };
}
