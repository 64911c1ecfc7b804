import type { FastifyInstance, preParsingHookHandler } from 'fastify';
import { AppError } from './errors.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * Request bodies are JSON in UTF-8, sent as is; any other content type is a 415 (docs/decisions.md, "Errors"). Fastify
 * would otherwise hand a text/plain body to validation as a string (a 400 about the body's type), read a body in
 * another charset or under a Content-Encoding (gzip) as UTF-8 text, and let the JSON parser decide what it meant.
 */
export function acceptOnlyJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  // Only on the routes that take a body: a hook on every request would cost the catalogue's reads for nothing.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().some((m) => WITH_BODY.has(m))) return;
    route.preParsing = [...[route.preParsing ?? []].flat(), refuseOtherEncodings];
  });
}

const refuseOtherEncodings: preParsingHookHandler = (request, _reply, payload, done) => {
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return done(
      new AppError('unsupportedMediaType', 'Content-Encoding is not supported; send the body as plain UTF-8 JSON'),
    );
  }
  const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    return done(
      new AppError(
        'unsupportedMediaType',
        'Content-Type must be application/json in UTF-8 (charset=utf-8, or no charset)',
      ),
    );
  }
  done(null, payload);
};
