import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TimeToPay, timeLeft } from '../../../src/features/orders/components/TimeToPay';
import { renderInConsole } from '../../support/render';

describe('the time left to pay', () => {
  const now = Date.parse('2026-12-02T10:00:00Z');
  it.each([
    ['2026-12-02T10:00:42Z', '0 min 42 s'],
    ['2026-12-02T10:12:05Z', '12 min 05 s'],
    ['2026-12-02T11:02:30Z', '1 h 02 min'],
    ['2026-12-05T13:00:00Z', '3 d 3 h'],
    ['2026-12-02T09:59:00Z', '0 min 00 s'],
  ])('until %s is "%s"', (until, text) => {
    expect(timeLeft(until, now)).toBe(text);
  });

  it('counts down on the page, and says the order is being cancelled once its deadline has passed', async () => {
    const soon = new Date(Date.now() + 30 * 60_000 + 500).toISOString();
    const { unmount } = renderInConsole(<TimeToPay expiresAt={soon} />);
    expect(await screen.findByText(/^(30 min 00 s|29 min 59 s)$/)).toBeTruthy();
    unmount();
    renderInConsole(<TimeToPay expiresAt={new Date(Date.now() - 1000).toISOString()} />);
    expect(await screen.findByText('Expired: being cancelled')).toBeTruthy();
  });
});
