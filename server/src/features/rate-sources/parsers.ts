import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { Dec } from '../pricing/decimal.js';
import type { RateSourceKind } from './schemas.js';

/**
 * The pairs a source publishes: `{"USD/RUB": "91.55"}` means 1 USD = 91.55 RUB, as an exact decimal string without
 * trailing zeros. Pure functions of the document's bytes (docs/rates.md, "Rate sources").
 */
export type Quotes = Record<string, string>;

/** A document the kind's parser cannot read: the poller records the message as the source's lastError. */
export class QuoteDocumentError extends Error {}

/** More pairs than any real source publishes (Binance lists a few thousand symbols): a document past it is refused. */
export const MAX_PAIRS = 10_000;
/** Currency codes as currencies are named here (upper-case letters and digits). */
const CODE = /^[A-Z0-9]{2,10}$/;
/** A plain positive decimal as these documents print them: digits, an optional fraction; no sign, no exponent. */
const PLAIN_DECIMAL = /^\d{1,30}(\.\d{1,30})?$/;
/** numeric(38,18), where the rates end up: a division that does not end is cut there. */
const MAX_DECIMALS = 18;

export function parseQuotes(kind: RateSourceKind, body: Uint8Array): Quotes {
  switch (kind) {
    case 'ecb':
      return parseEcb(body);
    case 'cbr':
      return parseCbr(body);
    case 'binance':
      return parseBinance(body);
    case 'json':
      return parseJsonRates(body);
  }
}

/** eurofxref-daily.xml: a gesmes envelope around `<Cube time><Cube currency rate/>…`, every rate per 1 EUR. */
export function parseEcb(body: Uint8Array): Quotes {
  const doc = readXml(body, 'utf-8') as { Envelope?: { Cube?: { Cube?: unknown } } };
  const day = first(doc.Envelope?.Cube?.Cube);
  const cubes = asObjects((day as { Cube?: unknown } | undefined)?.Cube);
  if (cubes.length === 0) throw new QuoteDocumentError('not an ECB reference rates document: no <Cube currency rate>');
  const quotes = new PairCollector();
  for (const cube of cubes) {
    const currency = text(cube['@_currency']);
    const rate = text(cube['@_rate']);
    if (currency === undefined || rate === undefined) throw new QuoteDocumentError('a <Cube> lacks currency or rate');
    quotes.add('EUR', currency, positive(rate, `rate of ${currency}`));
  }
  return quotes.done();
}

/**
 * XML_daily.asp: windows-1251, `<Valute>` with `<CharCode>`, `<Nominal>` and `<Value>` (the price of Nominal units
 * in roubles, with a decimal comma). The pair is CODE/RUB = Value / Nominal, computed exactly: `VunitRate`, which
 * newer files add, is the same quotient and is not needed.
 */
export function parseCbr(body: Uint8Array): Quotes {
  const doc = readXml(body, 'windows-1251') as { ValCurs?: { Valute?: unknown } };
  const valutes = asObjects(doc.ValCurs?.Valute);
  if (valutes.length === 0) throw new QuoteDocumentError('not a Bank of Russia daily rates document: no <Valute>');
  const quotes = new PairCollector();
  for (const v of valutes) {
    const code = text(v.CharCode);
    const nominal = text(v.Nominal);
    const value = text(v.Value);
    if (code === undefined || nominal === undefined || value === undefined) {
      throw new QuoteDocumentError('a <Valute> lacks CharCode, Nominal or Value');
    }
    if (!/^[1-9]\d{0,9}$/.test(nominal)) throw new QuoteDocumentError(`Nominal of ${code} is not a whole number`);
    const perNominal = positive(value.replace(',', '.'), `Value of ${code}`);
    const perUnit = new Dec(perNominal).div(nominal).toDecimalPlaces(MAX_DECIMALS, Dec.ROUND_HALF_EVEN);
    quotes.add(code, 'RUB', perUnit.toFixed());
  }
  return quotes.done();
}

/**
 * The quote assets a Binance symbol may end with, longest first, so that `BTCFDUSD` reads BTC/FDUSD (not BTCF/DUSD)
 * and `ETHBTC` reads ETH/BTC. A symbol ending with none of them, or with nothing before it, is skipped.
 */
export const BINANCE_QUOTE_ASSETS = [
  'FDUSD',
  'USDT',
  'USDC',
  'BUSD',
  'TUSD',
  'USDP',
  'DAI',
  'BTC',
  'ETH',
  'BNB',
  'EUR',
  'GBP',
  'TRY',
  'BRL',
  'RUB',
  'UAH',
  'AUD',
  'JPY',
  'ZAR',
  'PLN',
  'RON',
  'ARS',
  'MXN',
  'COP',
  'IDR',
  'XRP',
  'TRX',
  'DOGE',
  'SOL',
].sort((a, b) => b.length - a.length);

/**
 * /api/v3/ticker/price: `[{"symbol": "BTCUSDT", "price": "64000.01000000"}, …]`. Symbols are split with the quote
 * assets above; a price of zero (a symbol no longer traded) is skipped too, as it prices nothing.
 */
export function parseBinance(body: Uint8Array): Quotes {
  const doc = readJson(body);
  if (!Array.isArray(doc)) throw new QuoteDocumentError('not a Binance ticker price list: expected a JSON array');
  const quotes = new PairCollector();
  for (const entry of doc as unknown[]) {
    const { symbol, price } = (entry ?? {}) as { symbol?: unknown; price?: unknown };
    if (typeof symbol !== 'string' || typeof price !== 'string') {
      throw new QuoteDocumentError('a Binance ticker entry lacks a string symbol or price');
    }
    if (!PLAIN_DECIMAL.test(price)) throw new QuoteDocumentError(`price of ${symbol.slice(0, 20)} is not a decimal`);
    const quote = BINANCE_QUOTE_ASSETS.find((q) => symbol.length > q.length && symbol.endsWith(q));
    if (!quote || new Dec(price).isZero()) continue;
    const base = symbol.slice(0, -quote.length);
    if (!CODE.test(base)) continue;
    quotes.add(base, quote, new Dec(price).toFixed());
  }
  return quotes.done();
}

/**
 * Our own format, `{"rates": {"USD/RUB": "91.55"}}`: a value is a decimal string or a JSON number, the number read
 * from its JSON text (never through a double, so `91.550000000000000001` stays what it says).
 */
export function parseJsonRates(body: Uint8Array): Quotes {
  const doc = readJson(body) as { rates?: unknown } | null;
  const rates = doc && typeof doc === 'object' && !Array.isArray(doc) ? doc.rates : undefined;
  if (!rates || typeof rates !== 'object' || Array.isArray(rates)) {
    throw new QuoteDocumentError('expected an object {"rates": {"BASE/QUOTE": "rate", …}}');
  }
  const quotes = new PairCollector();
  for (const [pair, value] of Object.entries(rates as Record<string, unknown>)) {
    const shown = pair.slice(0, 30);
    const [base, quote, extra] = pair.split('/');
    if (quote === undefined || extra !== undefined) throw new QuoteDocumentError(`"${shown}" is not a BASE/QUOTE pair`);
    const digits = isLosslessNumber(value) ? exponentFree(value.value) : value;
    if (typeof digits !== 'string') throw new QuoteDocumentError(`the rate of ${shown} is not a decimal`);
    quotes.add(base, quote, positive(digits, `the rate of ${shown}`));
  }
  return quotes.done();
}

/** A JSON number's text without an exponent (`1.5e2` → "150"); anything else is left for the decimal check. */
function exponentFree(json: string): string {
  return /^\d+(\.\d+)?[eE][+-]?\d{1,3}$/.test(json) ? new Dec(json).toFixed() : json;
}

class PairCollector {
  private readonly quotes: Quotes = {};
  private count = 0;

  add(base: string, quote: string, rate: string): void {
    if (!CODE.test(base) || !CODE.test(quote) || base === quote) {
      throw new QuoteDocumentError(`"${base.slice(0, 12)}/${quote.slice(0, 12)}" is not a pair of currency codes`);
    }
    const pair = `${base}/${quote}`;
    if (Object.hasOwn(this.quotes, pair)) throw new QuoteDocumentError(`${pair} appears twice`);
    if (++this.count > MAX_PAIRS) throw new QuoteDocumentError(`more than ${MAX_PAIRS} pairs`);
    this.quotes[pair] = rate;
  }

  done(): Quotes {
    if (this.count === 0) throw new QuoteDocumentError('the document holds no rates');
    return this.quotes;
  }
}

/** A rate as a positive decimal without trailing zeros, or the document's fault. */
function positive(value: string, what: string): string {
  const trimmed = value.trim();
  if (!PLAIN_DECIMAL.test(trimmed)) throw new QuoteDocumentError(`${what} is not a decimal`);
  const rate = new Dec(trimmed);
  if (rate.isZero()) throw new QuoteDocumentError(`${what} is zero`);
  return rate.toFixed();
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Every value stays the text it was: numbers are read here as decimals, never as doubles.
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
});

/**
 * The document as text in the encoding its XML declaration names (the Bank of Russia's says windows-1251), or
 * `fallback` when it names none; then parsed, after a well-formedness check that names the line of a fault.
 */
function readXml(body: Uint8Array, fallback: string): unknown {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? fallback, { fatal: true });
  } catch {
    throw new QuoteDocumentError(`unknown XML encoding ${declared?.slice(0, 40)}`);
  }
  let source: string;
  try {
    source = decoder.decode(body);
  } catch {
    throw new QuoteDocumentError(`the document is not valid ${declared ?? fallback}`);
  }
  const valid = XMLValidator.validate(source);
  if (valid !== true) {
    throw new QuoteDocumentError(`not well-formed XML (line ${valid.err.line}): ${valid.err.msg.slice(0, 200)}`);
  }
  return xml.parse(source) as unknown;
}

function readJson(body: Uint8Array): unknown {
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new QuoteDocumentError('the document is not valid UTF-8');
  }
  try {
    return parseLossless(source);
  } catch (err) {
    throw new QuoteDocumentError(`not JSON: ${(err as Error).message.slice(0, 200)}`);
  }
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? (value as unknown[])[0] : value;
}

function asObjects(value: unknown): Record<string, unknown>[] {
  const list = Array.isArray(value) ? (value as unknown[]) : value === undefined ? [] : [value];
  return list.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}
