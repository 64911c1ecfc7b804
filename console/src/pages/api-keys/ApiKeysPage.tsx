import { Button, Modal, Paper, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { hasRole, useMe } from '../../lib/auth/me';
import { BranchKeys, CreateKeyForm, KeyTable, useMyKeys } from '../../features/api-keys';

/** Everyone's own keys; admins also see their branch's keys, a superadmin every branch's. */
export function ApiKeysPage() {
  const me = useMe();
  const mine = useMyKeys();
  const [opened, { open, close }] = useDisclosure(false);
  const [keyShown, setKeyShown] = useState(false);
  const admin = hasRole(me.data, 'admin', 'superadmin');
  return (
    <>
      <PageHeader
        title="API keys"
        description="Partners call the API with these. A key is shown once, when it is created."
      >
        <Button onClick={open}>New key</Button>
      </PageHeader>
      <Paper withBorder p="md" component="section" aria-labelledby="my-keys">
        <Title order={2} size="h5" id="my-keys" mb="xs">
          Keys you created
        </Title>
        <QueryState query={mine}>
          {(keys) => <KeyTable keys={keys} asAdmin={false} label="Keys you created" />}
        </QueryState>
      </Paper>
      {admin && <BranchKeys superadmin={hasRole(me.data, 'superadmin')} />}
      {/* The raw key is shown once: only "I have stored it" may close the dialog then, never a stray Escape. */}
      <Modal
        opened={opened}
        onClose={close}
        title="New API key"
        size="lg"
        closeOnClickOutside={false}
        closeOnEscape={!keyShown}
        withCloseButton={!keyShown}
      >
        <CreateKeyForm
          onCreated={() => setKeyShown(true)}
          onDone={() => {
            setKeyShown(false);
            close();
          }}
        />
      </Modal>
    </>
  );
}
