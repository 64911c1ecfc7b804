import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CounterOrderForm } from '../../../src/features/counter';
import { amountProblem } from '../../../src/features/counter/components/counter-rules';
import { lookups } from '../../support/fixtures';
import { reply, requests } from '../../support/network';
import { renderInConsole } from '../../support/render';

const ESTIMATE = '/api/v1/admin/estimate';
const usd = { id: 1, name: 'US Dollar', ticker: 'USD', image: null };
const eur = { id: 2, name: 'Euro', ticker: 'EUR', image: null };

/** A Select's option, found among hidden elements too (jsdom may keep the list under `display: none`). */
async function pick(user: ReturnType<typeof renderInConsole>['user'], label: string, option: RegExp) {
  const input = screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
  await user.click(input);
  const list = await waitFor(
    () =>
      document.getElementById(input.getAttribute('aria-controls') ?? '') ??
      Promise.reject(new Error(`${label}: no list`)),
  );
  await user.click(within(list).getByRole('option', { name: option, hidden: true }));
}

describe('the counter order form', () => {
  it('asks the server for the estimate of what is typed and shows its figures, never its own', async () => {
    reply('POST', ESTIMATE, (sent) => {
      const body = sent.body as { amount: number; direction: string };
      return {
        body: {
          sourceAmount: body.amount,
          destAmount: 113.75,
          rate: 0.9215,
          isReverse: false,
          sourceCurrency: usd,
          destCurrency: eur,
          exchangeId: 1,
          offerId: 1,
        },
      };
    });
    const { user } = renderInConsole(<CounterOrderForm lookups={lookups} />);
    // The first exchange is picked already.
    expect(screen.getByLabelText(/^Exchange/, { selector: 'input' })).toHaveProperty('value', 'Central Exchange');
    await pick(user, 'Client gives', /^USD/);
    await pick(user, 'Client receives', /^EUR/);
    await user.type(screen.getByRole('textbox', { name: /^Amount the client gives/ }), '123.45');
    await waitFor(() => expect(document.querySelector('[data-estimate-dest]')?.textContent).toBe('113.75 EUR'));
    expect(document.querySelector('[data-estimate-source]')?.textContent).toBe('123.45 USD');
    // Asked once the typing paused, not at every key.
    expect(requests('POST', ESTIMATE).map((r) => r.body)).toEqual([
      { exchangeId: 1, sourceCurrencyId: 1, destCurrencyId: 2, amount: 123.45, direction: 'source' },
    ]);
  });

  it("shows the server's refusal of the estimate in its place", async () => {
    reply('POST', ESTIMATE, {
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        message: 'amount must be at least 10 USD',
        errors: { amount: 'belowMin' },
      },
    });
    const { user } = renderInConsole(<CounterOrderForm lookups={lookups} />);
    await pick(user, 'Client gives', /^USD/);
    await pick(user, 'Client receives', /^EUR/);
    await user.type(screen.getByRole('textbox', { name: /^Amount the client gives/ }), '5');
    await waitFor(() =>
      expect(document.querySelector('[data-estimate-error]')?.textContent).toMatch(/at least 10 USD/),
    );
  });
});

describe('an amount typed at the counter', () => {
  it.each([
    ['', 2, 'Enter an amount'],
    ['12,5', 2, 'Write a plain number, such as 100 or 100.50'],
    ['1e3', 2, 'Write a plain number, such as 100 or 100.50'],
    ['0.00', 2, 'Must be more than 0'],
    ['1.005', 2, 'At most 2 decimals'],
    ['10.5', 0, 'This currency has no decimals'],
    ['1234567890123456', 2, 'At most 15 digits'],
    ['0.00000001', 8, null],
    ['100.50', 2, null],
  ])('%j (%i decimals): %s', (text, decimals, problem) => {
    expect(amountProblem(text, decimals)).toBe(problem);
  });
});
