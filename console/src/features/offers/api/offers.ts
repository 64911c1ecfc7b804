import { api, unwrap } from '../../../lib/api/client';
import type { Body, Response } from '../../../lib/api/types';

export type OfferChange = Body<'/api/v1/admin/offers/{id}', 'patch'>;
export type NewOffer = Body<'/api/v1/admin/offers', 'post'>;

export const listOffers = (exchangeId: number | null) =>
  unwrap(
    api.GET('/api/v1/admin/offers', {
      params: {
        query: {
          filter: JSON.stringify({ exchangeId }),
          sort: '[["currency1Id","ASC"],["currency2Id","ASC"]]',
          limit: 100,
        },
      },
    }),
  );

export const updateOffer = (id: number, change: OfferChange) =>
  unwrap(api.PATCH('/api/v1/admin/offers/{id}', { params: { path: { id } }, body: change }));

export const createOffer = (body: NewOffer) => unwrap(api.POST('/api/v1/admin/offers', { body }));

export type Pricing = OfferChange['pricing'];
export type RateHistory = Response<'/api/v1/admin/offers/{id}/rates', 'get'>;

export const resumeOffer = (id: number) =>
  unwrap(api.POST('/api/v1/admin/offers/{id}/resume', { params: { path: { id } } }));

export const offerRates = (id: number, from: string, to: string) =>
  unwrap(api.GET('/api/v1/admin/offers/{id}/rates', { params: { path: { id }, query: { from, to } } }));
