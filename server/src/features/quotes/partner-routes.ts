import type { Database } from '../../db/database.js';
import { errorResponses } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { estimate } from '../catalog/presenters.js';
import { EstimateRequest } from '../catalog/schemas.js';
import { amountFromJson } from '../pricing/decimal.js';
import { FirmQuote } from './schemas.js';
import { takeQuote } from './service.js';

const security = [{ apiKey: [] }];

/** Firm quotes: the estimate's figures held for QUOTE_TTL_SECONDS, for an order to use once (docs/integration.md). */
export function quoteRoutes({ db, config }: { db: Database; config: { quoteTtlSeconds: number } }) {
  return async function routes(app: App) {
    app.post('/public/quotes', {
      config: { publicKeyAllowed: true },
      schema: {
        operationId: 'createQuote', tags: ['public'], summary: 'A firm quote: the estimate\'s figures, held for an order', security, body: EstimateRequest,
        response: { 201: FirmQuote, ...errorResponses(400, 401, 404, 429) },
      },
    }, async (request, reply) => {
      const body = request.body;
      const { quote: q, id, expiresAt } = await takeQuote(db, request.apiKey, {
        exchangeId: body.exchangeId, sourceCurrencyId: body.sourceCurrencyId, destCurrencyId: body.destCurrencyId,
        amount: amountFromJson(body.amount), direction: body.direction ?? 'source',
      }, config.quoteTtlSeconds);
      // The estimate's answer, held: the same figures, with what names and ends the hold.
      return reply.code(201).send({ ...estimate(q), quoteId: id, expiresAt });
    });
  };
}

