import { Alert, Button, Center, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api/errors';

/**
 * A page's data: a loader while it comes, the reason (and a retry) when it does not, else the page. When a page that
 * had its data fails to read it again (a re-read in the background, the network gone a moment), the page stays as
 * last read with the reason above it: staff keep what they were looking at, and know it may be stale.
 */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending)
    return (
      <Center p="xl">
        {/* A name on a bare <span> is not announced (axe: aria-prohibited-attr); as a status it is. */}
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (query.isError) {
    // Asking again for what does not exist brings the same answer.
    const missing = query.error instanceof ApiError && query.error.status === 404;
    if (missing || query.data === undefined)
      return <LoadFailed message={query.error.message} retry={missing ? undefined : () => void query.refetch()} />;
    return (
      <>
        <Alert color="yellow" title="Could not refresh this" role="alert" mb="md">
          {query.error.message} Showing what was last read.
          <div>
            <Button mt="sm" size="xs" variant="light" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        </Alert>
        {children(query.data)}
      </>
    );
  }
  return children(query.data);
}

/** Why a page shows no data ("Order not found"), with a retry when one may help. */
export function LoadFailed({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <Alert color="red" title="Could not load this" role="alert">
      {message}
      {retry && (
        <div>
          <Button mt="sm" size="xs" variant="light" onClick={retry}>
            Try again
          </Button>
        </div>
      )}
    </Alert>
  );
}
