import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { databaseUnavailable } from '../db/errors.js';
import { OutageCount } from '../db/outage-log.js';
import { DomainError } from '../domain-error.js';
import { httpErrorOf } from './error-table.js';
import { AppError, STATUS_NAMES, type ErrorBody } from './errors.js';
import { describeValidationErrors } from './validation.js';

/** How long a client should wait before retrying a request the database could not serve. */
const RETRY_AFTER_SECONDS = 2;

/** The single place where errors become HTTP responses. 5xx bodies never carry internals. */
export function registerErrorHandling(
  app: FastifyInstance,
  afterStatement: (listener: () => void) => () => void,
): void {
  // Not a line per request: during an outage that is the traffic's volume in warnings.
  const refusals = new OutageCount((level, msg, extra) => app.log[level](extra ?? {}, msg), {
    started: 'database unavailable: requests that need it are answered 503 until it is back',
    ended: 'the database is available again; requests are served',
    counted: 'refused',
  });
  // The outage ends with the first statement that succeeds, whichever part of the process ran it.
  const unsubscribe = afterStatement(() => refusals.succeeded());
  app.addHook('onClose', (_app, done) => {
    unsubscribe();
    done();
  });
  app.setErrorHandler((err: FastifyError | AppError | DomainError, request, reply) => {
    if (err instanceof DomainError) {
      const refusal = httpErrorOf(err);
      if (refusal) return send(reply, refusal.statusCode, refusal.toBody());
      request.log.error({ err }, 'a domain error code without an entry in the error table');
      return send(reply, 500, { statusCode: 500, message: 'Internal server error', error: STATUS_NAMES[500] });
    }
    if (err instanceof AppError) return send(reply, err.statusCode, err.toBody(), err.headers);

    if (err.validation) {
      const problems = describeValidationErrors(err.validation, err.validationContext ?? 'request');
      const errors = Object.fromEntries(problems.map((p) => [p.field, p.code]));
      return send(reply, 400, {
        statusCode: 400,
        message: problems.map((p) => p.message),
        error: STATUS_NAMES[400],
        errors,
      });
    }

    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return send(reply, status, {
        statusCode: status,
        message: clientMessage(err),
        error: STATUS_NAMES[status] ?? 'Error',
      });
    }

    // An outage is not the request's fault nor a bug: a 503 that tells clients to retry, as the 429 does.
    if (databaseUnavailable(err)) {
      const detail = { err: { message: err.message, code: (err as { code?: unknown }).code } };
      request.log.debug(detail, 'database unavailable');
      refusals.failed(detail);
      const body = {
        statusCode: 503,
        message: 'The service is temporarily unavailable; retry later',
        error: STATUS_NAMES[503],
        retryAfter: RETRY_AFTER_SECONDS,
      };
      return send(reply, 503, body, { 'Retry-After': RETRY_AFTER_SECONDS });
    }

    request.log.error({ err }, 'request failed');
    return send(reply, 500, { statusCode: 500, message: 'Internal server error', error: STATUS_NAMES[500] });
  });

  app.setNotFoundHandler((request, reply) => {
    send(reply, 404, {
      statusCode: 404,
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      error: STATUS_NAMES[404],
    });
  });
}

function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Content-Type must be application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Request body is not valid JSON';
    default:
      if (err instanceof SyntaxError) return 'Request body is not valid JSON';
      return err.message;
  }
}

function send(
  reply: FastifyReply,
  status: number,
  body: ErrorBody,
  headers?: Record<string, string | number>,
): FastifyReply {
  if (headers) reply.headers(headers);
  // Error bodies bypass route response schemas so no status is ever mis-serialized.
  return reply.code(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}
