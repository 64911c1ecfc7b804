import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export type MovementBody = Body<'/api/v1/admin/exchanges/{id}/cash/{currencyId}/movements', 'post'>;
export type TransferBody = Body<'/api/v1/admin/cash/transfers', 'post'>;

export const listPositions = (id: number) =>
  unwrap(api.GET('/api/v1/admin/exchanges/{id}/cash', { params: { path: { id } } }));

/** A page of a position's ledger, newest first. */
export const listMovements = (id: number, currencyId: number, skip: number, limit: number) =>
  unwrap(
    api.GET('/api/v1/admin/exchanges/{id}/cash/{currencyId}/movements', {
      params: { path: { id, currencyId }, query: { skip, limit, sort: JSON.stringify([['id', 'DESC']]) } },
    }),
  );

export const recordMovement = (id: number, currencyId: number, body: MovementBody) =>
  unwrap(
    api.POST('/api/v1/admin/exchanges/{id}/cash/{currencyId}/movements', {
      params: { path: { id, currencyId } },
      body,
    }),
  );

export const transferCash = (body: TransferBody) => unwrap(api.POST('/api/v1/admin/cash/transfers', { body }));

export const setLowWatermark = (id: number, currencyId: number, lowWatermark: string) =>
  unwrap(
    api.PATCH('/api/v1/admin/exchanges/{id}/cash/{currencyId}', {
      params: { path: { id, currencyId } },
      body: { lowWatermark },
    }),
  );
