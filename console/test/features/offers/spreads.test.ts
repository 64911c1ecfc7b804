import { describe, expect, it } from 'vitest';
import { pricingLine, spreads, suspension } from '../../../src/features/offers/components/offer-pricing';
import { divide, multiply } from '../../../src/lib/decimal';
import { offer } from '../../support/fixtures';

const EUR = { id: 2, code: 'EUR', name: 'Euro' };
const USD = { id: 1, code: 'USD', name: 'US Dollar' };
const GBP = { id: 3, code: 'GBP', name: 'Pound' };

describe('buy and sell of the pairs offered both ways', () => {
  it('pairs A→B with B→A once, the spread percent exact', () => {
    const rows = spreads([
      { ...offer, id: 1, currency1: USD, currency2: EUR, rate: '0.9215' as unknown as number },
      { ...offer, id: 2, currency1: EUR, currency2: USD, rate: 1.0712 },
      { ...offer, id: 3, currency1: GBP, currency2: USD, rate: '1.25' as unknown as number },
    ]);
    expect(rows).toEqual([
      {
        base: 'USD',
        quote: 'EUR',
        buy: '0.9215',
        sell: '0.933532',
        spread: '0.012032',
        spreadPercent: '1.28892',
        buyOfferId: 1,
        sellOfferId: 2,
      },
    ]);
  });

  it('multiplies and divides exactly', () => {
    expect(multiply('0.1', '0.2')).toBe('0.02');
    expect(multiply('-1.5', '2')).toBe('-3');
    expect(divide(1, 3, 4)).toBe('0.3333');
    expect(divide('1', '1.0712', 6)).toBe('0.933532');
  });
});

describe("an offer's pricing in words", () => {
  it('names the reference pair and margin, and a suspension', () => {
    const priced = {
      ...offer,
      pricing: {
        mode: 'source' as const,
        sourceId: 3,
        base: 'USD',
        quote: 'EUR',
        marginPercent: -1.25,
      },
    };
    expect(pricingLine(priced)).toBe('USD/EUR −1.25 %');
    expect(pricingLine(offer)).toBe('Fixed rate');
    expect(suspension({ pricingState: 'suspended', suspendedReason: 'stale' })).toBe('Feed stale');
    expect(suspension({ pricingState: 'suspended', suspendedReason: 'jump' })).toBe('Reference jumped');
    expect(suspension({ pricingState: 'active', suspendedReason: null })).toBeNull();
  });
});
