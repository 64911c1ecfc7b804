import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Decimal } from 'decimal.js';
import { parse } from 'lossless-json';
import { badRequest } from './errors.js';

/**
 * JSON numbers a double cannot hold are refused, not rounded. JSON.parse reads `1234567890123456.78` as
 * 1234567890123456.8 and `90071992.54740993` (BTC) one satoshi off, and the amount would be priced and stored as
 * if the partner had sent it (decisions.md: money is never silently rounded). Any number of at most 15 significant
 * digits is exact, so the body is read twice only when it holds a run of 16 digits or points: most never do.
 */
const LONG_RUN = /\d[\d.]{15}/;

class Inexact {
  constructor(readonly text: string) {}
}

type Done = (err: Error | null, body?: unknown) => void;

/**
 * Replaces the JSON parser with the default one behind two rules: an empty body is no body, and a number a double
 * cannot hold is refused (Fastify's other checks and messages unchanged).
 */
export function parseJsonBodies(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: Done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      // Many HTTP clients send the header with every request: an empty body is no body (a route needing one says so).
      if (text.length === 0) return done(null, undefined);
      const inexact = LONG_RUN.test(text) ? firstInexact(text) : undefined;
      if (inexact) {
        return done(
          badRequest(
            `${inexact.field} has more significant digits than a JSON number keeps exactly (${shown(inexact.text)}); send at most 15`,
            { [inexact.field]: 'tooPrecise' },
          ),
        );
      }
      void json(request, text, done);
    },
  );
}

/** The number as sent, cut short: a refusal need not repeat a megabyte of digits. */
function shown(number: string): string {
  return number.length <= 40 ? number : `${number.slice(0, 40)}…`;
}

/** Whether JSON.parse reads the number as written: the double's shortest form has the same value. */
function exact(number: string): boolean {
  return new Decimal(number).eq(new Decimal(String(Number(number))));
}

/** The first number that would not survive JSON.parse, with the name it has; none when the text is not JSON. */
function firstInexact(text: string): { field: string; text: string } | undefined {
  let found: { field: string; text: string } | undefined;
  try {
    parse(
      text,
      function reviver(key, value) {
        if (!found && value instanceof Inexact) found = { field: key === '' ? 'body' : key, text: value.text };
        return value;
      },
      (number) => (exact(number) ? 0 : new Inexact(number)),
    );
  } catch {
    return undefined;
  }
  return found;
}
