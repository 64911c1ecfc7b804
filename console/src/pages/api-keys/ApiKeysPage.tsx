import { Button, Group, Modal, Paper, Select, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { hasRole, useMe } from '../../auth/use-me';
import { branchOptions, useLookups } from '../../components/lookups';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { CreateKeyForm } from './CreateKeyForm';
import { KeyTable } from './KeyTable';
import { useBranchKeys, useMyKeys } from './use-keys';

/** Everyone's own keys; admins also see their branch's keys, a superadmin every branch's. */
export function ApiKeysPage() {
  const me = useMe();
  const mine = useMyKeys();
  const [opened, { open, close }] = useDisclosure(false);
  const [keyShown, setKeyShown] = useState(false);
  const admin = hasRole(me.data, 'admin', 'superadmin');
  return (
    <>
      <PageHeader title="API keys" description="Partners call the API with these. A key is shown once, when it is created.">
        <Button onClick={open}>New key</Button>
      </PageHeader>
      <Paper withBorder p="md" component="section" aria-labelledby="my-keys">
        <Title order={2} size="h5" id="my-keys" mb="xs">Keys you created</Title>
        <QueryState query={mine}>{(keys) => <KeyTable keys={keys} asAdmin={false} label="Keys you created" />}</QueryState>
      </Paper>
      {admin && <BranchKeys superadmin={hasRole(me.data, 'superadmin')} />}
      {/* The raw key is shown once: only "I have stored it" may close the dialog then, never a stray Escape. */}
      <Modal opened={opened} onClose={close} title="New API key" size="lg" closeOnClickOutside={false} closeOnEscape={!keyShown} withCloseButton={!keyShown}>
        <CreateKeyForm onCreated={() => setKeyShown(true)} onDone={() => { setKeyShown(false); close(); }} />
      </Modal>
    </>
  );
}

function BranchKeys({ superadmin }: { superadmin: boolean }) {
  const lookups = useLookups();
  const [type, setType] = useState<string | null>(null);
  const [branch, setBranch] = useState<string | null>(null);
  const keys = useBranchKeys(true, { ...(type ? { type: type as 'branch' } : {}), ...(branch ? { branchId: Number(branch) } : {}) });
  return (
    <Paper withBorder p="md" mt="md" component="section" aria-labelledby="branch-keys">
      <Title order={2} size="h5" id="branch-keys" mb="xs">{superadmin ? 'Every branch\'s keys' : 'Keys of your branch'}</Title>
      <Group mb="sm">
        <Select label="Type" placeholder="Every type" clearable data={['branch', 'public', 'personal']} value={type} onChange={setType} w={180} />
        {superadmin && <Select label="Branch" placeholder="Every branch" clearable data={branchOptions(lookups.data)} value={branch} onChange={setBranch} w={220} />}
      </Group>
      <QueryState query={keys}>{(data) => <KeyTable keys={data.data} asAdmin label="Branch keys" />}</QueryState>
    </Paper>
  );
}
