import { api, unwrap } from '../../../lib/api/client';
import type { Body, Response } from '../../../lib/api/types';

export type RateSource = Response<'/api/v1/admin/rate-sources', 'get'>['data'][number];
export type NewRateSource = Body<'/api/v1/admin/rate-sources', 'post'>;
export type RateSourceChange = Body<'/api/v1/admin/rate-sources/{id}', 'patch'>;

export const listRateSources = () =>
  unwrap(api.GET('/api/v1/admin/rate-sources', { params: { query: { sort: '[["name","ASC"]]', limit: 100 } } }));

export const createRateSource = (body: NewRateSource) => unwrap(api.POST('/api/v1/admin/rate-sources', { body }));

export const updateRateSource = (id: number, change: RateSourceChange) =>
  unwrap(api.PATCH('/api/v1/admin/rate-sources/{id}', { params: { path: { id } }, body: change }));

export const deleteRateSource = (id: number) =>
  unwrap(api.DELETE('/api/v1/admin/rate-sources/{id}', { params: { path: { id } } }));
