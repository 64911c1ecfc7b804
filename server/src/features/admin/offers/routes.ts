import type { AppContext } from '../../../context.js';
import { parseListQuery, type ListSpec } from '../../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../../http/schemas.js';
import type { App } from '../../../http/types.js';
import { listOffers } from '../../catalog/repository.js';
import * as present from '../../catalog/presenters.js';
import { Offer, OfferList } from '../../catalog/schemas.js';
import { adminScope, BRANCH_ADMINS, page, security } from '../common.js';
import { CreateOfferRequest, UpdateOfferRequest } from './schemas.js';
import { createOffer, updateOffer } from './service.js';

const LIST: ListSpec = {
  filters: { isActive: { type: 'boolean' }, exchangeId: { type: 'integer' }, currency1Id: { type: 'integer' }, currency2Id: { type: 'integer' } },
  sorts: ['id', 'rate', 'minAmount', 'maxAmount', 'exchangeId', 'currency1Id', 'currency2Id', 'createdAt', 'updatedAt'],
};

/** Rate offers of the branch's exchanges. Offers read the same as in the partner API, so the shapes are shared. */
export function offerRoutes(ctx: AppContext) {
  return async function routes(app: App) {
    const config = { staffRoles: BRANCH_ADMINS };
    const tags = ['admin'];

    app.post('/offers', {
      config,
      schema: { tags, summary: 'Create an offer (emits offer.updated)', security, body: CreateOfferRequest, response: { 201: Offer, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(await createOffer(ctx.db, adminScope(request.staff), request.body)));

    app.get('/offers', {
      config,
      schema: { tags, summary: 'List offers, active or not', security, querystring: ListQuery, response: { 200: OfferList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      // The partner listing's query, over the caller's back office (branch-wide, or every branch).
      const { rows, total } = await listOffers(ctx.db, adminScope(request.staff), params);
      return page(rows.map(present.offer), total, params);
    });

    app.patch('/offers/:id', {
      config,
      schema: {
        tags, summary: 'Change an offer\'s rate, limits or state (emits offer.updated)', security, params: IdParams, body: UpdateOfferRequest,
        response: { 200: Offer, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => updateOffer(ctx.db, adminScope(request.staff), request.params.id, request.body));
  };
}
