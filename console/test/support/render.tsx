import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach } from 'vitest';
import { queryClient } from '../../src/app/query-client';
import { cssVariablesResolver, theme } from '../../src/app/theme';

afterEach(() => {
  queryClient.clear();
  notifications.clean();
});

/** `ui` inside the providers main.tsx gives every page: the theme, notices, the console's query client, dialogs. */
export function renderInConsole(ui: ReactElement) {
  // No pause between keys: a form of the console re-renders on each one, and jsdom is slow enough.
  const user = userEvent.setup({ delay: null });
  const view = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <MemoryRouter>{ui}</MemoryRouter>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { user, ...view };
}
