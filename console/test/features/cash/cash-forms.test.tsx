import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MovementForm } from '../../../src/features/cash/components/MovementForm';
import type { CashPosition } from '../../../src/lib/api/types';
import { lookups, refusal } from '../../support/fixtures';
import { reply, requests, unanswered } from '../../support/network';
import { renderInConsole } from '../../support/render';

const PATH = '/api/v1/admin/exchanges/1/cash/1/movements';

/** USD at the Central Exchange: 150.30 in the till, 100 of it held by open orders. */
const usd: CashPosition = {
  currency: { id: 1, ticker: 'USD' },
  balance: 150.3,
  held: 100,
  available: 50.3,
  lowWatermark: 0,
  updatedAt: '2026-11-02T09:00:00.000Z',
};

const renderForm = (kind: 'count' | 'withdrawal', positions: CashPosition[] = [usd]) =>
  renderInConsole(<MovementForm exchangeId={1} kind={kind} positions={positions} lookups={lookups} currencyId={1} />);

const difference = () => document.querySelector('[data-count-difference]')?.textContent;
const amountError = (label: string) =>
  document.getElementById(`${screen.getByLabelText(new RegExp(`^${label}`)).id}-error`)?.textContent;

describe('the count form', () => {
  it('shows counted − balance while the count is typed, exactly and before anything is saved', async () => {
    const { user } = renderForm('count');
    expect(difference()).toBe('Enter the cash counted to see the difference from the balance.');
    await user.type(screen.getByLabelText(/^Cash counted/), '150.25');
    // 150.25 − 150.3 in floating point is -0.05000000000001137.
    expect(difference()).toBe('Difference: −0.05 USD (counted 150.25 − balance 150.30)');
    await user.clear(screen.getByLabelText(/^Cash counted/));
    await user.type(screen.getByLabelText(/^Cash counted/), '1200000');
    expect(difference()).toBe('Difference: +1,199,849.70 USD (counted 1,200,000 − balance 150.30)');
    await user.clear(screen.getByLabelText(/^Cash counted/));
    await user.type(screen.getByLabelText(/^Cash counted/), '150.30');
    expect(difference()).toBe('Difference: 0.00 USD (counted 150.30 − balance 150.30)');
    expect(requests('POST', PATH)).toEqual([]);
  });

  it('sends the counted cash, not the difference, and an empty drawer (0) is a count', async () => {
    reply('POST', PATH, {
      status: 201,
      body: {
        movement: {
          id: 5,
          kind: 'count',
          amount: -150.3,
          balanceAfter: 0,
          orderId: null,
          staffId: 2,
          reason: null,
          createdAt: '2026-11-02T10:00:00.000Z',
        },
        position: { ...usd, balance: 0, held: 0, available: 0 },
      },
    });
    const { user } = renderForm('count');
    await user.type(screen.getByLabelText(/^Cash counted/), '0');
    expect(difference()).toBe('Difference: −150.30 USD (counted 0 − balance 150.30)');
    await user.click(screen.getByRole('button', { name: 'Record count' }));
    await waitFor(() => expect(requests('POST', PATH)).toHaveLength(1));
    expect(requests('POST', PATH)[0]!.body).toEqual({ kind: 'count', amount: '0' });
    expect(unanswered).toEqual([]);
  });

  it('refuses more decimals than the currency keeps, under the field', async () => {
    const { user } = renderForm('count');
    await user.type(screen.getByLabelText(/^Cash counted/), '10.005');
    await user.click(screen.getByRole('button', { name: 'Record count' }));
    expect(amountError('Cash counted')).toBe('At most 2 decimals');
    expect(requests('POST', PATH)).toEqual([]);
  });
});

describe('the withdrawal form', () => {
  it('takes at most what open orders do not hold, and says so under the amount without asking the API', async () => {
    const { user } = renderForm('withdrawal');
    await user.type(screen.getByLabelText(/^Amount withdrawn/), '50.31');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(amountError('Amount withdrawn')).toBe('Only 50.30 USD is available: 100.00 is held by open orders');
    expect(requests('POST', PATH)).toEqual([]);
  });

  it("shows the API's refusal under the amount when open orders took the cash meanwhile", async () => {
    reply(
      'POST',
      PATH,
      refusal('amount would leave the balance below the 140 USD held by open orders; 10.3 USD is available', {
        amount: 'belowHeld',
      }),
    );
    const { user } = renderForm('withdrawal');
    await user.type(screen.getByLabelText(/^Amount withdrawn/), '50');
    await user.type(screen.getByLabelText(/^Reason/), 'To the bank');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(requests('POST', PATH)).toHaveLength(1));
    expect(requests('POST', PATH)[0]!.body).toEqual({ kind: 'withdrawal', amount: '50', reason: 'To the bank' });
    await waitFor(() =>
      expect(amountError('Amount withdrawn')).toBe(
        'Would leave the balance below the 140 USD held by open orders; 10.3 USD is available',
      ),
    );
  });

  it('refuses 0 and a grouped amount before sending', async () => {
    const { user } = renderForm('withdrawal');
    await user.type(screen.getByLabelText(/^Amount withdrawn/), '0');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(amountError('Amount withdrawn')).toBe('Must be more than 0');
    await user.clear(screen.getByLabelText(/^Amount withdrawn/));
    await user.type(screen.getByLabelText(/^Amount withdrawn/), '1,000');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(amountError('Amount withdrawn')).toBe('A number such as 1250.50: digits and a point, no grouping');
    expect(requests('POST', PATH)).toEqual([]);
  });
});
