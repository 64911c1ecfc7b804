import { Alert, Button, Center, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** A page's data: a loader while it comes, the reason (and a retry) when it does not, else the page. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Center p="xl"><Loader aria-label="Loading" /></Center>;
  if (query.isError) {
    return (
      <Alert color="red" title="Could not load this" role="alert">
        {query.error.message}
        <div><Button mt="sm" size="xs" variant="light" onClick={() => query.refetch()}>Try again</Button></div>
      </Alert>
    );
  }
  return children(query.data);
}
