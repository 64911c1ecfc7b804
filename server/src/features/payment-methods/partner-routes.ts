import type { Database } from '../../db/database.js';
import { listMeta, parseListQuery, type ListSpec } from '../../http/list-query.js';
import { partnerRoute } from '../../auth/route-access.js';
import { ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { PaymentMethodList, PAYMENT_METHOD_KINDS } from './schemas.js';
import { listUsablePaymentMethods } from './service.js';

const LIST: ListSpec = {
  filters: {
    kind: { type: 'enum', values: PAYMENT_METHOD_KINDS },
    exchangeId: { type: 'integer' },
    currencyId: { type: 'integer' },
    isActive: { type: 'boolean' },
  },
  sorts: ['id', 'name', 'kind', 'exchangeId', 'currencyId', 'createdAt', 'updatedAt'],
};

/**
 * The ids an order's paymentMethodSource and paymentMethodDest may name, which a partner had no way to learn: the
 * branch's methods for every office (`exchangeId` null) and those of the exchanges in the key's scope.
 */
export function paymentMethodPartnerRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get(
      '/payment-methods',
      partnerRoute('catalog')({
        keys: 'secret',
        config: { etag: true },
        schema: {
          operationId: 'listPaymentMethods',
          querystring: ListQuery,
          summary:
            "Payment methods the key's orders may name: the branch's for every office (exchangeId null) and those of the exchanges in scope; currencyId null takes any currency",
          response: { 200: PaymentMethodList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        const page = await listUsablePaymentMethods(db, request.apiKey, params);
        return { data: page.rows, meta: listMeta(page, params) };
      },
    );
  };
}
