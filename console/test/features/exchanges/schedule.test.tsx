import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExchangeForm } from '../../../src/features/exchanges/components/ExchangeForm';
import type { Exchange } from '../../../src/lib/api/types';
import { exchange, lookups, refusal } from '../../support/fixtures';
import { reply, requests, unanswered } from '../../support/network';
import { renderInConsole } from '../../support/render';

const PATH = '/api/v1/admin/exchanges/1';

/** Monday to Friday 09:00–18:00, Saturday closed, Sunday not published. */
const week: Exchange = {
  ...exchange,
  schedule: [
    ...[1, 2, 3, 4, 5].map((dayOfWeek) => ({
      dayOfWeek,
      openTime: '09:00:00',
      closeTime: '18:00:00',
      isClosed: false,
    })),
    { dayOfWeek: 6, openTime: null, closeTime: null, isClosed: true },
  ],
};

function renderForm(x: Exchange = week) {
  reply('GET', '/api/v1/admin/lookups', { body: lookups });
  return renderInConsole(<ExchangeForm exchange={x} withBranch={false} />);
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/** A day's row of the editor (the table's rows are named by their day, but by role the query is slow in jsdom). */
const day = (name: string) => document.querySelector<HTMLElement>(`tr[data-day="${DAYS.indexOf(name) + 1}"]`)!;
const time = (label: string) => screen.getByLabelText(label);
const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}-error`)?.textContent;

describe("an exchange's weekly hours", () => {
  it('sends the published days only: hours for an open day, no hours for a closed one', async () => {
    reply('PATCH', PATH, ({ body }) => ({ body: { ...week, ...(body as object) } }));
    const { user } = renderForm();
    // Sunday was not published: its hours cannot be typed, nor marked closed.
    expect(time('Sunday opens')).toHaveProperty('disabled', true);
    expect(within(day('Sunday')).getByLabelText('Closed')).toHaveProperty('disabled', true);

    await user.click(within(day('Wednesday')).getByLabelText('Published'));
    await user.click(within(day('Friday')).getByLabelText('Closed'));
    expect(time('Friday opens')).toHaveProperty('disabled', true);
    await user.click(within(day('Sunday')).getByLabelText('Published'));
    await user.clear(time('Sunday opens'));
    await user.type(time('Sunday opens'), '10:30');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(requests('PATCH', PATH)).toHaveLength(1));
    expect((requests('PATCH', PATH)[0]!.body as { schedule: unknown }).schedule).toEqual([
      { dayOfWeek: 1, openTime: '09:00', closeTime: '18:00', isClosed: false },
      { dayOfWeek: 2, openTime: '09:00', closeTime: '18:00', isClosed: false },
      { dayOfWeek: 4, openTime: '09:00', closeTime: '18:00', isClosed: false },
      { dayOfWeek: 5, isClosed: true },
      { dayOfWeek: 6, isClosed: true },
      { dayOfWeek: 7, openTime: '10:30', closeTime: '18:00', isClosed: false },
    ]);
    // No coordinates typed: no location at all, never 0, 0.
    expect((requests('PATCH', PATH)[0]!.body as { location: unknown }).location).toBeNull();
    expect(await screen.findByText('Central Exchange: saved')).toBeTruthy();
    expect(unanswered).toEqual([]);
  });

  it("puts the API's refusal of a day under that day, though the API numbers only the days sent", async () => {
    // Without Monday and Tuesday, the API's schedule.1 is Thursday.
    reply(
      'PATCH',
      PATH,
      refusal('schedule.1.closeTime must be after openTime 19:00; 00:00 closes at midnight', {
        'schedule.1.closeTime': 'invalidValue',
      }),
    );
    const { user } = renderForm();
    for (const name of ['Monday', 'Tuesday']) await user.click(within(day(name)).getByLabelText('Published'));
    await user.clear(time('Thursday opens'));
    await user.type(time('Thursday opens'), '19:00');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(time('Thursday closes').getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(time('Thursday closes'))).toBe('Must be after the opening time 19:00; 00:00 closes at midnight');
    expect(time('Wednesday closes').getAttribute('aria-invalid')).not.toBe('true');
  });
});

describe("an exchange's location", () => {
  it('refuses one coordinate without the other, or one that is not a number, and sends nothing', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Latitude'), '38.7078');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(errorOf(screen.getByLabelText('Longitude'))).toBe('Give both latitude and longitude, or neither');

    await user.type(screen.getByLabelText('Longitude'), 'west');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(errorOf(screen.getByLabelText('Longitude'))).toBe('A decimal number, such as 38.7078');
    expect(requests('PATCH', PATH)).toEqual([]);
  });

  it('sends both coordinates as numbers', async () => {
    reply('PATCH', PATH, ({ body }) => ({ body: { ...week, ...(body as object) } }));
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Latitude'), '38.7078');
    await user.type(screen.getByLabelText('Longitude'), '-9.1366');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests('PATCH', PATH)).toHaveLength(1));
    expect((requests('PATCH', PATH)[0]!.body as { location: unknown }).location).toEqual({
      latitude: 38.7078,
      longitude: -9.1366,
    });
  });
});
