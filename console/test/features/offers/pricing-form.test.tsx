import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PricingForm } from '../../../src/features/offers/components/PricingForm';
import { offer } from '../../support/fixtures';
import { reply, requests } from '../../support/network';
import { renderInConsole } from '../../support/render';

const PATH = '/api/v1/admin/offers/7';
const source = { id: 3, name: 'Local feed' };

describe("an offer's pricing form", () => {
  it('switches a fixed offer to a source with a margin, sending only the source fields given', async () => {
    reply('GET', '/api/v1/admin/rate-sources', () => ({ body: { data: [source], total: 1 } }));
    reply('PATCH', PATH, ({ body }) => ({
      body: {
        ...offer,
        rate: '0.9108',
        pricing: { ...(body as { pricing: object }).pricing, decimals: null, floor: null, ceiling: null },
        updatedAt: '2026-11-02T09:00:00.000Z',
      },
    }));
    const { user } = renderInConsole(<PricingForm offer={offer} />);
    await user.click(screen.getByRole('combobox', { name: 'Pricing' }));
    await user.click(await screen.findByRole('option', { name: 'From a rate source, with a margin' }));
    await user.click(screen.getByRole('combobox', { name: 'Rate source' }));
    await user.click(await screen.findByRole('option', { name: 'Local feed' }));
    await user.clear(screen.getByRole('textbox', { name: 'Margin (%)' }));
    await user.type(screen.getByRole('textbox', { name: 'Margin (%)' }), '-1');
    await user.type(screen.getByRole('textbox', { name: 'Suspend on a jump over (%) (optional)' }), '5');
    await user.click(screen.getByRole('button', { name: 'Save pricing' }));
    await waitFor(() => expect(requests('PATCH', PATH)).toHaveLength(1));
    expect(requests('PATCH', PATH)[0]!.body).toEqual({
      pricing: { mode: 'source', sourceId: 3, base: 'USD', quote: 'EUR', marginPercent: '-1', maxJumpPercent: '5' },
    });
    expect(await screen.findByText('USD → EUR: priced from the source')).toBeTruthy();
  });
});
