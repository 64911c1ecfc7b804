import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { StaffForm } from '../../../src/features/staff/components/StaffForm';
import { admin, lookups, refusal } from '../../support/fixtures';
import { reply, requests, unanswered } from '../../support/network';
import { renderInConsole } from '../../support/render';

const PATH = '/api/v1/admin/staff';
const saved = (body: unknown) => ({
  status: 201,
  body: { id: 9, branchId: 1, isActive: true, createdAt: '2026-11-02T09:00:00.000Z', ...(body as object) },
});

async function renderNewUser() {
  reply('GET', '/api/v1/auth/me', { body: admin });
  reply('GET', '/api/v1/admin/lookups', { body: lookups });
  const view = renderInConsole(<StaffForm user={null} onSaved={() => undefined} />);
  // The exchanges to choose from come with the lookups.
  await waitFor(() => expect(requests('GET', '/api/v1/admin/lookups')).toHaveLength(1));
  return view;
}

const email = () => screen.getByLabelText(/^Email/);
const password = () => screen.getByLabelText(/^Password/);
const create = () => screen.getByRole('button', { name: 'Create' });

/**
 * Picks `option` of the Select or MultiSelect labelled `label`: a click opens its list, a click on the option takes
 * it. The list is the one the input controls; jsdom may keep it under `display: none` (no layout), so the option is
 * found among hidden elements too.
 */
async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  const input = screen.getByLabelText(label, { selector: 'input' });
  await user.click(input);
  const list = await waitFor(
    () =>
      document.getElementById(input.getAttribute('aria-controls') ?? '') ??
      Promise.reject(new Error(`${label}: no list`)),
  );
  await user.click(within(list).getByRole('option', { name: option, hidden: true }));
}

describe('a new staff user', () => {
  it('needs a password: without one the form is not sent', async () => {
    const { user } = await renderNewUser();
    await user.type(email(), 'cashier@demo.local');
    await user.click(create());
    expect(password().matches(':invalid')).toBe(true);
    expect(requests('POST', PATH)).toEqual([]);
  });

  it('is an operator at first, with orders to read and move: warned while it serves no exchange, then sent with its exchanges', async () => {
    reply('POST', PATH, ({ body }) => saved(body));
    const { user } = await renderNewUser();
    await user.type(email(), 'cashier@demo.local');
    await user.type(password(), 'correct horse battery');
    expect(document.querySelector('[data-warning="no-exchanges"]')?.textContent).toContain(
      'An operator without exchanges sees no orders',
    );

    await pick(user, 'Exchanges served', 'Airport Desk');
    await waitFor(() => expect(document.querySelector('[data-warning="no-exchanges"]')).toBeNull());
    await user.click(create());

    await waitFor(() => expect(requests('POST', PATH)).toHaveLength(1));
    expect(requests('POST', PATH)[0]!.body).toEqual({
      email: 'cashier@demo.local',
      password: 'correct horse battery',
      role: 'operator',
      exchangeIds: [2],
      permissions: ['orders:read', 'orders:write'],
    });
    expect(await screen.findByText('cashier@demo.local: saved')).toBeTruthy();
    expect(unanswered).toEqual([]);
  });

  it('as an admin has no exchanges or permissions to choose, and is sent without them', async () => {
    reply('POST', PATH, ({ body }) => saved(body));
    const { user } = await renderNewUser();
    await user.type(email(), 'manager@demo.local');
    await user.type(password(), 'correct horse battery');
    await pick(user, 'Role', 'admin');
    await waitFor(() => expect(screen.queryByLabelText('Exchanges served', { selector: 'input' })).toBeNull());
    expect(screen.queryByRole('group', { name: 'Permissions' })).toBeNull();
    await user.click(create());

    await waitFor(() => expect(requests('POST', PATH)).toHaveLength(1));
    expect(requests('POST', PATH)[0]!.body).toEqual({
      email: 'manager@demo.local',
      password: 'correct horse battery',
      role: 'admin',
    });
  });

  it("shows the API's refusal of the password under the password", async () => {
    reply('POST', PATH, refusal('password must NOT have fewer than 12 characters', { password: 'tooShort' }));
    const { user } = await renderNewUser();
    await user.type(email(), 'cashier@demo.local');
    await user.type(password(), 'short');
    await user.click(create());

    await waitFor(() =>
      expect(document.getElementById(`${password().id}-error`)?.textContent).toBe(
        'Must NOT have fewer than 12 characters',
      ),
    );
  });
});
