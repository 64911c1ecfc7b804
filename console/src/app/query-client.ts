import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, ConnectionError } from '../lib/api/errors';
import { meKeys } from '../lib/auth/me';
import { showError, showTransient } from '../lib/notify';

declare module '@tanstack/react-query' {
  interface Register {
    /**
     * `fieldErrors: true`: the form puts a 400's field messages on its fields (fieldErrorsTo), and a notice for those
     * it has no field for, so no notice here repeats them.
     */
    mutationMeta: { fieldErrors?: boolean };
  }
}

/** A 403 may mean the user's role or scope changed since the console last asked: ask again, and the menu follows. */
function refusedFor(err: unknown): void {
  if (err instanceof ApiError && err.status === 403) void queryClient.invalidateQueries({ queryKey: meKeys.all });
}

/** Server state of every page. A read that fails for the network or a 429 says so once; pages show the rest in place. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (err, query) => {
      if (query.queryKey[0] !== meKeys.all[0]) refusedFor(err);
      showTransient(err);
    },
  }),
  mutationCache: new MutationCache({
    onError: (err, _variables, _context, mutation) => {
      refusedFor(err);
      if (
        mutation.meta?.fieldErrors &&
        err instanceof ApiError &&
        err.status === 400 &&
        Object.keys(err.fieldErrors).length > 0
      )
        return;
      showError(err);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // Only a lost connection is worth trying again by itself; a refusal stays a refusal.
      retry: (count, err) => err instanceof ConnectionError && count < 2,
      refetchOnWindowFocus: true,
      // A read offline fails and says so (and is tried again), instead of waiting without a word.
      networkMode: 'always',
    },
    // 'always': while the browser says it is offline, TanStack's default pauses a change and sends it by itself when
    // the connection returns, maybe after the user left the page, with no word: an order moved minutes later. A
    // change fails at once instead, with the connection notice, and is not made.
    mutations: { retry: false, networkMode: 'always' },
  },
});
