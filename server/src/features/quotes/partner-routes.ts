import type { Database } from '../../db/database.js';
import { partnerRoute } from '../../auth/route-access.js';
import type { App } from '../../http/types.js';
import { estimate } from '../catalog/presenters.js';
import { EstimateRequest } from '../catalog/schemas.js';
import { amountFromJson } from '../pricing/decimal.js';
import { FirmQuote } from './schemas.js';
import { takeQuote } from './service.js';

/** Firm quotes: the estimate's figures held for QUOTE_TTL_SECONDS, for an order to use once (docs/integration.md). */
export function quoteRoutes({ db, config }: { db: Database; config: { quoteTtlSeconds: number } }) {
  return async function routes(app: App) {
    app.post(
      '/public/quotes',
      partnerRoute('public')({
        keys: 'any',
        errors: [404],
        schema: {
          operationId: 'createQuote',
          summary: "A firm quote: the estimate's figures, held for an order",
          body: EstimateRequest,
          response: { 201: FirmQuote },
        },
      }),
      async (request, reply) => {
        const body = request.body;
        const {
          quote: q,
          id,
          expiresAt,
        } = await takeQuote(
          db,
          request.apiKey,
          {
            exchangeId: body.exchangeId,
            sourceCurrencyId: body.sourceCurrencyId,
            destCurrencyId: body.destCurrencyId,
            amount: amountFromJson(body.amount),
            direction: body.direction ?? 'source',
          },
          config.quoteTtlSeconds,
        );
        // The estimate's answer, held: the same figures, with what names and ends the hold.
        return reply.code(201).send({ ...estimate(q), quoteId: id, expiresAt });
      },
    );
  };
}
