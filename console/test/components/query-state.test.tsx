import { useQuery } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueryState } from '../../src/components/QueryState';
import { queryClient } from '../../src/app/query-client';
import { api, unwrap } from '../../src/lib/api/client';
import { reply } from '../support/network';
import { renderInConsole } from '../support/render';

const PATH = '/api/v1/admin/exchanges';

function Exchanges() {
  const query = useQuery({
    queryKey: ['query-state-test'],
    queryFn: () => unwrap(api.GET('/api/v1/admin/exchanges', {})),
  });
  return <QueryState query={query}>{(page) => <p>{page.data.map((e) => e.name).join(', ')}</p>}</QueryState>;
}

const page = (names: string[]) => ({
  body: { data: names.map((name, i) => ({ id: i + 1, name })), meta: { total: names.length, skip: 0, limit: 25 } },
});

describe('QueryState', () => {
  it('keeps the page as last read when a re-read fails, says why, and reads again on Try again', async () => {
    reply('GET', PATH, page(['Central Exchange']));
    const { user } = renderInConsole(<Exchanges />);
    expect(await screen.findByText('Central Exchange')).toBeTruthy();

    reply('GET', PATH, { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'Down' } });
    await act(() => queryClient.refetchQueries({ queryKey: ['query-state-test'] }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not refresh this');
    expect(screen.getByText('Central Exchange')).toBeTruthy();

    reply('GET', PATH, page(['Central Exchange', 'Airport Desk']));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Central Exchange, Airport Desk')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('says why and offers a retry when there was nothing to show yet', async () => {
    reply('GET', PATH, { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'Down' } });
    renderInConsole(<Exchanges />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load this');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
