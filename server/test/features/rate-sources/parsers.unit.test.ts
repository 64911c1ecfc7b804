import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  parseBinance,
  parseCbr,
  parseEcb,
  parseJsonRates,
  parseQuotes,
  QuoteDocumentError,
} from '../../../src/features/rate-sources/parsers.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/rate-sources/${name}`, import.meta.url));
const bytes = (text: string) => new TextEncoder().encode(text);
const cp1251 = (text: string) =>
  // The Cyrillic letters as windows-1251 bytes (А–я are 0xC0–0xFF), everything else ASCII.
  Uint8Array.from([...text].map((c) => (c >= 'А' && c <= 'я' ? c.charCodeAt(0) - 0x410 + 0xc0 : c.charCodeAt(0))));

describe('ecb: eurofxref-daily.xml', () => {
  it('reads every rate of the day as EUR/CODE, exactly, without trailing zeros', () => {
    const quotes = parseEcb(fixture('eurofxref-daily.xml'));
    expect(Object.keys(quotes)).toHaveLength(30);
    expect(quotes['EUR/USD']).toBe('1.0845');
    expect(quotes['EUR/ISK']).toBe('149.9');
    expect(quotes['EUR/IDR']).toBe('17714.61');
    expect(quotes['EUR/GBP']).toBe('0.84365');
  });

  it.each([
    ['not XML', 'this is not xml'],
    ['an unclosed element', "<?xml version='1.0'?><gesmes:Envelope><Cube><Cube time='x'>"],
    ['no Cube', "<?xml version='1.0'?><Envelope><subject>x</subject></Envelope>"],
    ['a Cube without rate', "<Envelope><Cube><Cube time='d'><Cube currency='USD'/></Cube></Cube></Envelope>"],
    [
      'a rate that is not a decimal',
      "<Envelope><Cube><Cube time='d'><Cube currency='USD' rate='1,08'/></Cube></Cube></Envelope>",
    ],
    ['a negative rate', "<Envelope><Cube><Cube time='d'><Cube currency='USD' rate='-1.08'/></Cube></Cube></Envelope>"],
    ['a zero rate', "<Envelope><Cube><Cube time='d'><Cube currency='USD' rate='0.0000'/></Cube></Cube></Envelope>"],
    ['a lower-case code', "<Envelope><Cube><Cube time='d'><Cube currency='usd' rate='1.08'/></Cube></Cube></Envelope>"],
  ])('refuses %s with a QuoteDocumentError', (_what, text) => {
    expect(() => parseEcb(bytes(text))).toThrow(QuoteDocumentError);
  });

  it('reads a day with a single currency', () => {
    const one = "<Envelope><Cube><Cube time='d'><Cube currency='USD' rate='1.0800'/></Cube></Cube></Envelope>";
    expect(parseEcb(bytes(one))).toEqual({ 'EUR/USD': '1.08' });
  });
});

describe('cbr: XML_daily.asp', () => {
  it('decodes windows-1251 and reads Value / Nominal exactly, with decimal commas', () => {
    const raw = fixture('XML_daily.asp.xml');
    // The fixture is the real encoding: its Cyrillic names are single bytes, not UTF-8.
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(raw)).toThrow();
    const quotes = parseCbr(raw);
    expect(Object.keys(quotes)).toHaveLength(29);
    expect(quotes['USD/RUB']).toBe('89.5072');
    expect(quotes['EUR/RUB']).toBe('96.0415');
    expect(quotes['AMD/RUB']).toBe('0.234567');
    expect(quotes['JPY/RUB']).toBe('0.57641');
    expect(quotes['VND/RUB']).toBe('0.0035123');
    expect(quotes['UZS/RUB']).toBe('0.00698852');
    expect(quotes['AUD/RUB']).toBe('58.9');
  });

  it('takes Value / Nominal even where VunitRate is missing, and a Nominal that does not divide evenly', () => {
    const doc = cp1251(
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="02.12.2026" name="Foreign Currency Market">' +
        '<Valute ID="R1"><NumCode>1</NumCode><CharCode>XAA</CharCode><Nominal>3</Nominal><Name>Тест</Name><Value>1,0000</Value></Valute>' +
        '</ValCurs>',
    );
    expect(parseCbr(doc)).toEqual({ 'XAA/RUB': '0.333333333333333333' });
  });

  it.each([
    ['a Nominal of 0', '<Nominal>0</Nominal><Value>1,0</Value>'],
    ['a Nominal with a fraction', '<Nominal>1,5</Nominal><Value>1,0</Value>'],
    ['a Value with two commas', '<Nominal>1</Nominal><Value>1,0,0</Value>'],
    ['no Value', '<Nominal>1</Nominal>'],
  ])('refuses %s', (_what, inner) => {
    const doc = cp1251(
      `<?xml version="1.0" encoding="windows-1251"?><ValCurs><Valute><CharCode>USD</CharCode>${inner}</Valute></ValCurs>`,
    );
    expect(() => parseCbr(doc)).toThrow(QuoteDocumentError);
  });

  it('refuses a document without Valute, and an encoding nobody knows', () => {
    expect(() => parseCbr(cp1251('<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="x"/>'))).toThrow(
      /no <Valute>/,
    );
    expect(() => parseCbr(bytes('<?xml version="1.0" encoding="x-klingon"?><ValCurs/>'))).toThrow(
      /unknown XML encoding/,
    );
  });

  it('reads a file that declares UTF-8 as UTF-8', () => {
    const doc = bytes(
      '<?xml version="1.0" encoding="utf-8"?><ValCurs><Valute><CharCode>USD</CharCode><Nominal>1</Nominal><Name>Доллар США</Name><Value>90,10</Value></Valute></ValCurs>',
    );
    expect(parseCbr(doc)).toEqual({ 'USD/RUB': '90.1' });
  });
});

describe('binance: /api/v3/ticker/price', () => {
  it('splits symbols by the longest known quote asset and keeps prices exact', () => {
    const quotes = parseBinance(fixture('ticker-price.json'));
    expect(quotes['BTC/USDT']).toBe('64000.01');
    expect(quotes['ETH/BTC']).toBe('0.03612');
    expect(quotes['BTC/FDUSD']).toBe('63998.5');
    expect(quotes['FDUSD/USDT']).toBe('0.9987');
    expect(quotes['BTC/TUSD']).toBe('64010');
    expect(quotes['USDT/TRY']).toBe('32.41');
    expect(quotes['1000SATS/USDT']).toBe('0.0003121');
    expect(quotes['PEPE/USDT']).toBe('0.00001187');
    expect(quotes['BNB/ETH']).toBe('0.1667');
    expect(quotes['WBTC/BTC']).toBe('0.9991');
  });

  it('skips what it cannot split or price: an unknown quote asset, a bare asset, a zero price', () => {
    const quotes = parseBinance(fixture('ticker-price.json'));
    expect(Object.keys(quotes)).not.toContain('XYZ/123');
    expect(Object.keys(quotes).some((p) => p.startsWith('BCC/'))).toBe(false);
    expect(Object.keys(quotes).some((p) => p.includes('XYZ'))).toBe(false);
    expect(Object.keys(quotes)).toHaveLength(37);
  });

  it.each([
    ['an object', '{"symbol":"BTCUSDT","price":"1"}'],
    ['a numeric price', '[{"symbol":"BTCUSDT","price":64000.01}]'],
    ['a price in exponent form', '[{"symbol":"BTCUSDT","price":"6.4e4"}]'],
    ['no symbol', '[{"price":"1"}]'],
    ['nothing that splits', '[{"symbol":"ABCDEF","price":"1"}]'],
    ['truncated JSON', '[{"symbol":"BTCUSDT","pri'],
    ['the same pair twice', '[{"symbol":"BTCUSDT","price":"1"},{"symbol":"BTCUSDT","price":"2"}]'],
  ])('refuses %s', (_what, text) => {
    expect(() => parseBinance(bytes(text))).toThrow(QuoteDocumentError);
  });
});

describe('json: {"rates": {...}}', () => {
  it('reads strings and JSON numbers from their text, never through a double', () => {
    expect(parseJsonRates(fixture('rates.json'))).toEqual({
      'USD/RUB': '91.55',
      'EUR/RUB': '99.12',
      'USDT/RUB': '91.550000000000000001',
      'BTC/USD': '64000.01',
      'USD/JPY': '150',
    });
  });

  it.each([
    ['no rates', '{"data": {}}'],
    ['rates as a list', '{"rates": [["USD/RUB", "91"]]}'],
    ['a pair without a slash', '{"rates": {"USDRUB": "91"}}'],
    ['a pair with two slashes', '{"rates": {"USD/RUB/X": "91"}}'],
    ['the same currency twice', '{"rates": {"USD/USD": "1"}}'],
    ['a negative rate', '{"rates": {"USD/RUB": -91}}'],
    ['a zero rate', '{"rates": {"USD/RUB": "0"}}'],
    ['a rate with a comma', '{"rates": {"USD/RUB": "91,55"}}'],
    ['a null rate', '{"rates": {"USD/RUB": null}}'],
    ['empty rates', '{"rates": {}}'],
    ['not UTF-8', '\u00ff'],
  ])('refuses %s', (_what, text) => {
    const body = text === '\u00ff' ? Uint8Array.from([0xff, 0xfe]) : bytes(text);
    expect(() => parseJsonRates(body)).toThrow(QuoteDocumentError);
  });

  it('is what parseQuotes runs for the kind', () => {
    expect(parseQuotes('json', bytes('{"rates": {"USD/RUB": "91.55"}}'))).toEqual({ 'USD/RUB': '91.55' });
    expect(() => parseQuotes('ecb', fixture('rates.json'))).toThrow(QuoteDocumentError);
    expect(() => parseQuotes('binance', fixture('eurofxref-daily.xml'))).toThrow(QuoteDocumentError);
  });
});
