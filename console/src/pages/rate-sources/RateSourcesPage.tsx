import { Paper, Stack, Text, Title } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { hasRole, useMe } from '../../lib/auth/me';
import { nameOf, useLookups } from '../../features/lookups';
import { RateSourceCard, RateSourceForm, useRateSources } from '../../features/rate-sources';

/**
 * Where offers priced from the market take their reference: each source's health (a stale one has suspended its
 * offers), what it read last, and its settings. Admins of the branch, a superadmin for every branch.
 */
export function RateSourcesPage() {
  const sources = useRateSources();
  const me = useMe().data;
  const lookups = useLookups();
  const superadmin = hasRole(me, 'superadmin');
  return (
    <>
      <PageHeader
        title="Rate sources"
        description="Market rates read on a schedule: offers priced from a source follow them with their margin."
      />
      <QueryState query={sources}>
        {(data) => (
          <Stack gap="sm" role="list" aria-label="Rate sources">
            {data.data.length === 0 && <Text c="dimmed">No rate source yet.</Text>}
            {data.data.map((s) => (
              <div role="listitem" key={s.id}>
                <RateSourceCard
                  source={s}
                  branch={superadmin ? nameOf(lookups.data?.branches, s.branchId) : undefined}
                />
              </div>
            ))}
          </Stack>
        )}
      </QueryState>
      <Paper withBorder p="md" mt="md">
        <Title order={2} size="h5" mb="xs">
          New rate source
        </Title>
        <RateSourceForm />
      </Paper>
    </>
  );
}
