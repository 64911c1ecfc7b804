import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CounterOrderForm } from '../../../src/features/counter';
import { amountProblem } from '../../../src/features/counter/components/counter-rules';
import { lookups } from '../../support/fixtures';
import { reply, requests, type Reply } from '../../support/network';
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

describe('Create and print, retried after a network error', () => {
  const CLIENTS = '/api/v1/admin/clients';
  const ORDERS = '/api/v1/admin/orders';
  const keyOf = (r: { headers: Headers }) => r.headers.get('idempotency-key');
  const client = {
    id: 41,
    firstName: 'Walk',
    lastName: 'In',
    email: 'walk-in@example.com',
    phone: '+351912000111',
    branchId: 1,
    createdAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:00:00.000Z',
  };
  /** Fails the first `failures` requests as a dropped connection does (the server may have acted on them). */
  const failing = (failures: number, answer: Reply) => {
    let calls = 0;
    return () => {
      if (++calls <= failures) throw new TypeError('Failed to fetch');
      return answer;
    };
  };

  async function fillOrder(user: ReturnType<typeof renderInConsole>['user']) {
    reply('POST', ESTIMATE, { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'no offer' } });
    await pick(user, 'Client gives', /^USD/);
    await pick(user, 'Client receives', /^EUR/);
    await user.type(screen.getByRole('textbox', { name: /^Amount the client gives/ }), '123.45');
  }
  const createAndPrint = (user: ReturnType<typeof renderInConsole>['user']) =>
    user.click(screen.getByRole('button', { name: 'Create and print' }));

  it('sends the same Idempotency-Key again when the request of the client or of the order is retried', async () => {
    reply('POST', CLIENTS, failing(1, { status: 201, body: client }));
    reply('POST', ORDERS, failing(1, { status: 201, body: { id: 9001 } }));
    const { user } = renderInConsole(<CounterOrderForm lookups={lookups} />);
    await fillOrder(user);
    await user.click(screen.getByText('New client', { exact: true }));
    await user.type(screen.getByRole('textbox', { name: /^First name/ }), client.firstName);
    await user.type(screen.getByRole('textbox', { name: /^Last name/ }), client.lastName);
    await user.type(screen.getByRole('textbox', { name: /^Phone/ }), client.phone);
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), client.email);

    await createAndPrint(user); // the client's request is lost
    await waitFor(() => expect(requests('POST', CLIENTS)).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Create and print' })).toHaveProperty('disabled', false),
    );
    await createAndPrint(user); // the client is created, the order's request lost
    await waitFor(() => expect(requests('POST', ORDERS)).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Create and print' })).toHaveProperty('disabled', false),
    );
    await createAndPrint(user); // the order is created
    await waitFor(() => expect(requests('POST', ORDERS)).toHaveLength(2));

    const clients = requests('POST', CLIENTS);
    expect(clients).toHaveLength(2);
    expect(keyOf(clients[0]!)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keyOf(clients[1]!)).toBe(keyOf(clients[0]!));
    const orders = requests('POST', ORDERS);
    expect(orders.map((o) => o.body)).toEqual([orders[0]!.body, orders[0]!.body]);
    expect(orders[0]!.body).toMatchObject({ user: { id: client.id }, clientAmount: 123.45 });
    expect(keyOf(orders[0]!)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(orders[1]!)).toBe(keyOf(orders[0]!));
    expect(keyOf(orders[0]!)).not.toBe(keyOf(clients[0]!));
  });

  it('sends a new Idempotency-Key for an order whose values changed after a network error', async () => {
    reply('POST', ORDERS, failing(1, { status: 201, body: { id: 9002 } }));
    reply('GET', CLIENTS, { body: { data: [client], meta: { total: 1, skip: 0, limit: 20, nextCursor: null } } });
    const { user } = renderInConsole(<CounterOrderForm lookups={lookups} />);
    await fillOrder(user);
    await user.type(screen.getByLabelText(/^Client( \*)?$/, { selector: 'input' }), 'Walk');
    await user.click(await screen.findByRole('option', { name: /^Walk In/, hidden: true }));

    await createAndPrint(user);
    await waitFor(() => expect(requests('POST', ORDERS)).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Create and print' })).toHaveProperty('disabled', false),
    );
    const amount = screen.getByRole('textbox', { name: /^Amount the client gives/ });
    await user.clear(amount);
    await user.type(amount, '200');
    await createAndPrint(user);
    await waitFor(() => expect(requests('POST', ORDERS)).toHaveLength(2));

    const [lost, changed] = requests('POST', ORDERS);
    expect(changed!.body).toMatchObject({ clientAmount: 200, user: { id: client.id } });
    expect(keyOf(changed!)).not.toBe(keyOf(lost!));
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
