import { Table } from '@mantine/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { OfferList } from '../../../src/features/offers/components/OfferList';
import { OfferRow } from '../../../src/features/offers/components/OfferRow';
import type { Offer } from '../../../src/lib/api/types';
import { offer, refusal } from '../../support/fixtures';
import { reply, requests, unanswered } from '../../support/network';
import { renderInConsole } from '../../support/render';

const PATH = '/api/v1/admin/offers/7';

function renderRow() {
  return renderInConsole(
    <Table>
      <Table.Tbody>
        <OfferRow offer={offer} onPricing={() => undefined} />
      </Table.Tbody>
    </Table>,
  );
}

const rate = () => screen.getByRole('textbox', { name: 'Rate of USD → EUR' });
const minimum = () => screen.getByRole('textbox', { name: 'Minimum of USD → EUR' });
const save = () => screen.getByRole('button', { name: 'Save' });

describe("an offer's rate and limits, edited in its row", () => {
  it('saves only what changed, as the decimal text typed', async () => {
    reply('PATCH', PATH, ({ body }) => ({
      body: { ...offer, ...(body as object), rate: 0.9531, updatedAt: '2026-11-02T09:00:00.000Z' },
    }));
    const { user } = renderRow();
    expect(rate()).toHaveProperty('value', '0.953');
    expect(save()).toHaveProperty('disabled', true);

    await user.clear(rate());
    await user.type(rate(), '0.9531');
    await user.click(save());

    await waitFor(() => expect(requests('PATCH', PATH)).toHaveLength(1));
    expect(requests('PATCH', PATH)[0]!.body).toEqual({ rate: '0.9531' });
    expect(await screen.findByText('USD → EUR: saved')).toBeTruthy();
    expect(unanswered).toEqual([]);
  });

  it('asks before a rate more than twice or less than half the old one, and sends nothing until confirmed', async () => {
    reply('PATCH', PATH, ({ body }) => ({ body: { ...offer, rate: Number((body as { rate: string }).rate) } }));
    const { user } = renderRow();
    await user.clear(rate());
    await user.type(rate(), '0.000953');
    await user.click(save());

    const dialog = await screen.findByRole('dialog', { name: 'Change the rate of USD → EUR?' });
    expect(dialog.textContent).toContain('From 0.953 to 0.000953: 1,000 times lower');
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests('PATCH', PATH)).toEqual([]);
    expect(rate()).toHaveProperty('value', '0.000953');

    await user.click(save());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save the new rate' }));
    await waitFor(() => expect(requests('PATCH', PATH)).toHaveLength(1));
    expect(requests('PATCH', PATH)[0]!.body).toEqual({ rate: '0.000953' });
  });

  it("shows the API's refusal under the field it is about, naming the other field in the form's words", async () => {
    reply(
      'PATCH',
      PATH,
      refusal('minAmount 20000 must not be greater than maxAmount 10000', { minAmount: 'aboveMaximum' }),
    );
    const { user } = renderRow();
    await user.clear(minimum());
    await user.type(minimum(), '20000');
    await user.click(save());

    await waitFor(() => expect(minimum().getAttribute('aria-invalid')).toBe('true'));
    const error = document.getElementById(
      minimum()
        .getAttribute('aria-describedby')!
        .split(' ')
        .find((id) => id.endsWith('-error'))!,
    );
    expect(error?.textContent).toBe('20000 must not be greater than the maximum 10000');
    expect(requests('PATCH', PATH)[0]!.body).toEqual({ minAmount: '20000' });
    // Nothing changed: the row keeps what was typed, to be corrected.
    expect(minimum()).toHaveProperty('value', '20000');
  });
});

describe('a source-priced offer re-priced while its row is being edited', () => {
  it('shows the new rate and keeps the minimum being typed; Save sends the minimum alone', async () => {
    const priced: Offer = {
      ...offer,
      pricing: { mode: 'source', sourceId: 3, base: 'USD', quote: 'EUR', marginPercent: -1 },
      referenceRate: 0.9626,
      referenceAt: '2026-11-01T09:00:00.000Z',
    };
    reply('GET', '/api/v1/admin/rate-sources', { body: { data: [], total: 0 } });
    reply('PATCH', PATH, ({ body }) => ({
      body: { ...priced, ...(body as object), updatedAt: '2026-11-02T10:00:00.000Z' },
    }));
    let show: (o: Offer) => void = () => undefined;
    // The page's list as the next read of GET /admin/offers gives it: a new object, a new rate.
    function Page() {
      const [shown, setShown] = useState(priced);
      show = setShown;
      return <OfferList offers={[shown]} onPricing={() => undefined} />;
    }
    const { user } = renderInConsole(<Page />);
    await user.clear(minimum());
    await user.type(minimum(), '25');

    act(() => show({ ...priced, rate: 0.9617, referenceRate: 0.9714, updatedAt: '2026-11-01T09:05:00.000Z' }));
    expect(rate()).toHaveProperty('value', '0.9617');
    expect(minimum()).toHaveProperty('value', '25');

    await user.click(save());
    await waitFor(() => expect(requests('PATCH', PATH)).toHaveLength(1));
    expect(requests('PATCH', PATH)[0]!.body).toEqual({ minAmount: '25' });
  });
});
