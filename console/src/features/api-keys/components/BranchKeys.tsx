import { Group, Paper, Select, Title } from '@mantine/core';
import { useState } from 'react';
import { QueryState } from '../../../components/QueryState';
import { branchOptions, useLookups } from '../../lookups';
import { useBranchKeys } from '../hooks/use-keys';
import { KeyTable } from './KeyTable';

/** The keys of the admin's branch (of every branch for a superadmin), by type and branch. */
export function BranchKeys({ superadmin }: { superadmin: boolean }) {
  const lookups = useLookups();
  const [type, setType] = useState<string | null>(null);
  const [branch, setBranch] = useState<string | null>(null);
  const keys = useBranchKeys(true, {
    ...(type ? { type: type as 'branch' } : {}),
    ...(branch ? { branchId: Number(branch) } : {}),
  });
  return (
    <Paper withBorder p="md" mt="md" component="section" aria-labelledby="branch-keys">
      <Title order={2} size="h5" id="branch-keys" mb="xs">
        {superadmin ? "Every branch's keys" : 'Keys of your branch'}
      </Title>
      <Group mb="sm">
        <Select
          label="Type"
          placeholder="Every type"
          clearable
          data={['branch', 'public', 'personal']}
          value={type}
          onChange={setType}
          w={180}
        />
        {superadmin && (
          <Select
            label="Branch"
            placeholder="Every branch"
            clearable
            data={branchOptions(lookups.data)}
            value={branch}
            onChange={setBranch}
            w={220}
          />
        )}
      </Group>
      <QueryState query={keys}>{(data) => <KeyTable keys={data.data} asAdmin label="Branch keys" />}</QueryState>
    </Paper>
  );
}
