import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ListError } from '../../src/db/errors.js';
import { DECLARED_CODES, DomainError } from '../../src/domain-error.js';
import { ApiKeyError } from '../../src/features/api-keys/errors.js';
import { BranchError } from '../../src/features/branches/errors.js';
import { CashError } from '../../src/features/cash/errors.js';
import { CatalogError } from '../../src/features/catalog/errors.js';
import { ClientError } from '../../src/features/clients/errors.js';
import { CurrencyError } from '../../src/features/currencies/errors.js';
import { EventError } from '../../src/features/events/errors.js';
import { ExchangeError } from '../../src/features/exchanges/errors.js';
import { IdempotencyError } from '../../src/features/idempotency/errors.js';
import { OfferError } from '../../src/features/offers/errors.js';
import { OrderError } from '../../src/features/orders/errors.js';
import { PaymentMethodError } from '../../src/features/payment-methods/errors.js';
import { QuoteError } from '../../src/features/quotes/errors.js';
import { RateSourceError } from '../../src/features/rate-sources/errors.js';
import { StaffError } from '../../src/features/staff/errors.js';
import { WebhookError } from '../../src/features/webhooks/errors.js';
import { asHttpError, DOMAIN_ERRORS, httpErrorOf } from '../../src/http/error-table.js';

const SRC = resolve(import.meta.dirname, '../../src');

/** Every errors.ts of src/ but http/'s own (the HTTP errors): where features and db/ declare their codes. */
function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return entry.name === 'errors.ts' && relative(SRC, path) !== join('http', 'errors.ts') ? [path] : [];
  });
}

/** The codes each file declares, read from its exports: a declaration is found wherever it is exported. */
async function declaredCodes(): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (const path of declarationFiles(SRC)) {
    const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    for (const exported of Object.values(module)) {
      if (typeof exported !== 'object' || exported === null || !(DECLARED_CODES in exported)) continue;
      for (const code of (exported as { [DECLARED_CODES]: string[] })[DECLARED_CODES]) {
        expect(codes.has(code), `${code} is declared twice`).toBe(false);
        codes.set(code, relative(SRC, path));
      }
    }
  }
  return codes;
}

/** The declarations, named here so that the compiler can compare each code's details with its table entry. */
const DECLARATIONS = [
  ListError,
  ApiKeyError,
  BranchError,
  CashError,
  CatalogError,
  ClientError,
  CurrencyError,
  EventError,
  ExchangeError,
  IdempotencyError,
  OfferError,
  OrderError,
  PaymentMethodError,
  QuoteError,
  RateSourceError,
  StaffError,
  WebhookError,
] as const;

/** The errors a declaration makes (distributed over a union of declarations). */
type Made<T> = T extends unknown
  ? { [K in keyof T]: T[K] extends (...args: never[]) => infer E ? E : never }[keyof T]
  : never;
type Declared = Made<(typeof DECLARATIONS)[number]>;
type Table = typeof DOMAIN_ERRORS;
/** The codes whose details the table's entry could not read (or which have no entry): none, or this fails to compile. */
type Unreadable<E = Declared> = E extends { code: infer C; details: infer D }
  ? C extends keyof Table
    ? D extends Parameters<Table[C]['says']>[0]
      ? never
      : C
    : C
  : never;
const unreadable: [Unreadable] extends [never] ? 'none' : Unreadable = 'none';

describe('the error table', () => {
  it("reads each code's details as its maker makes them (checked by the compiler) and names every declaration", async () => {
    expect(unreadable).toBe('none');
    const named = DECLARATIONS.flatMap((d) => d[DECLARED_CODES]).sort();
    expect(named).toEqual([...(await declaredCodes()).keys()].sort());
  });

  it('has an entry for every declared domain error code, and none for a code nobody declares', async () => {
    const declared = await declaredCodes();
    // A walk that found nothing would pass for nothing.
    expect(new Set(declared.values()).size).toBeGreaterThanOrEqual(12);
    const missing = [...declared]
      .filter(([code]) => !Object.hasOwn(DOMAIN_ERRORS, code))
      .map(([code, file]) => `${code} (${file})`);
    const undeclared = Object.keys(DOMAIN_ERRORS).filter((code) => !declared.has(code));
    expect(missing, 'declared without a table entry').toEqual([]);
    expect(undeclared, 'table entries without a declared code').toEqual([]);
  });

  it("turns a domain error into the contract's status, message and errors", () => {
    const byMaker = httpErrorOf(
      new DomainError('orders.tooManyDecimals', { field: 'clientAmount', decimals: 2, currency: 'USD' }),
    );
    expect(byMaker?.toBody()).toEqual({
      statusCode: 400,
      message: 'clientAmount has more than 2 decimal places, the precision of USD',
      error: 'Bad Request',
      errors: { clientAmount: 'tooManyDecimals' },
    });
    expect(httpErrorOf(new DomainError('orders.notFound', {}))?.toBody()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      errors: { order: 'notFound' },
    });
    expect(httpErrorOf(new DomainError('quotes.used', { id: 'q1' }))?.toBody()).toEqual({
      statusCode: 422,
      message: 'quote q1 has already been used for an order',
      error: 'Unprocessable Entity',
      errors: { quoteId: 'used' },
    });
  });

  it('has no answer for a code it does not hold (the handler then answers 500 and logs it)', () => {
    expect(httpErrorOf(new DomainError('orders.noSuchCode', {}))).toBeUndefined();
    expect(httpErrorOf(new DomainError('toString', {}))).toBeUndefined();
    expect(asHttpError(new Error('a bug'))).toBeUndefined();
  });
});
