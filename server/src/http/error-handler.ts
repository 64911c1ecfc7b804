import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, STATUS_NAMES, type ErrorBody } from './errors.js';
import { describeValidationErrors } from './validation.js';

/** The single place where errors become HTTP responses. 5xx bodies never carry internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) return send(reply, err.statusCode, err.toBody(), err.headers);

    if (err.validation) {
      const problems = describeValidationErrors(err.validation, err.validationContext ?? 'request');
      const errors = Object.fromEntries(problems.map((p) => [p.field, p.code]));
      return send(reply, 400, { statusCode: 400, message: problems.map((p) => p.message), error: STATUS_NAMES[400], errors });
    }

    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return send(reply, status, { statusCode: status, message: clientMessage(err), error: STATUS_NAMES[status] ?? 'Error' });
    }

    request.log.error({ err }, 'request failed');
    return send(reply, 500, { statusCode: 500, message: 'Internal server error', error: STATUS_NAMES[500] });
  });

  app.setNotFoundHandler((request, reply) => {
    send(reply, 404, { statusCode: 404, message: `Route ${request.method} ${request.url.split('?')[0]} not found`, error: STATUS_NAMES[404] });
  });
}

function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return 'Content-Type must be application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY': return 'Request body must not be empty when Content-Type is application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY': return 'Request body is not valid JSON';
    default:
      if (err instanceof SyntaxError) return 'Request body is not valid JSON';
      return err.message;
  }
}

function send(reply: FastifyReply, status: number, body: ErrorBody, headers?: Record<string, string | number>): FastifyReply {
  if (headers) reply.headers(headers);
  // Error bodies bypass route response schemas so no status is ever mis-serialized.
  return reply.code(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

