import { createRequire } from 'node:module';

/**
 * Exact decimals leave as JSON numbers with every digit they have.
 *
 * Amounts and rates reach the serializer as the database's decimal strings, and a response schema types them
 * `number` (the contract's type). fast-json-stringify writes a `number` through `Number()`, which keeps about 16
 * significant digits: `0.123456789012345678` ETH or a report's sum of `6659329434.49600516` BTC would leave one
 * digit off. JSON itself has no such limit, so a plain decimal string is written as its digits instead (trailing
 * zeros of the fraction dropped, as `Number()` would drop them); a reader that parses numbers as doubles gets the
 * same double as before, one that keeps decimals gets the exact value. Anything else — a JS number, or a string that
 * is not a plain decimal — takes the library's own path.
 *
 * The library has no option for this; its generated code takes `asNumber` from its serializer class, so the class's
 * method is replaced once, for the copy Fastify compiles its response schemas with. The exact-numbers test fails if
 * a release changes that.
 */
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const TRAILING_FRACTION_ZEROS = /\.?0+$/;

export function exactJsonNumber(text: string): string | undefined {
  if (!PLAIN_DECIMAL.test(text)) return undefined;
  const digits = text.includes('.') ? text.replace(TRAILING_FRACTION_ZEROS, '') : text;
  return digits === '-0' ? '0' : digits;
}

interface SerializerClass {
  prototype: { asNumber: (this: unknown, value: unknown) => string };
}

let installed = false;

export function writeExactDecimals(): void {
  if (installed) return;
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const fromCompiler = createRequire(fromFastify.resolve('@fastify/fast-json-stringify-compiler'));
  const Serializer = fromCompiler('fast-json-stringify/lib/serializer') as SerializerClass;
  const libraryAsNumber = Serializer.prototype.asNumber;
  if (typeof libraryAsNumber !== 'function') throw new Error('fast-json-stringify has no asNumber to extend');
  Serializer.prototype.asNumber = function asNumber(value: unknown): string {
    if (typeof value === 'string') {
      const exact = exactJsonNumber(value);
      if (exact !== undefined) return exact;
    }
    return libraryAsNumber.call(this, value);
  };
  installed = true;
}
