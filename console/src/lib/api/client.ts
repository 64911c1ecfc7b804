import createClient, { type Middleware } from 'openapi-fetch';
import { session } from '../auth/session';
import { ApiError, ConnectionError } from './errors';
import type { paths } from '@pxs/sdk';

/**
 * The one client of the API, typed by the OpenAPI document: a path, a parameter or a field the API does not
 * have fails the console's typecheck. Every request carries the staff token; a 401 ends the session.
 */
const auth: Middleware = {
  onRequest({ request }) {
    const token = session.token();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !request.url.endsWith('/api/v1/auth/login')) session.expire();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '' });
api.use(auth);

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful call, or an ApiError / ConnectionError that the page shows where it belongs. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch {
    throw new ConnectionError();
  }
  if (result.response.ok) return result.data as T;
  const retryAfter = Number(result.response.headers.get('retry-after'));
  throw new ApiError(
    result.response.status,
    result.error as ApiError['body'],
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}
