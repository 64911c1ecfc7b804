import { Button, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { hasRole, useMe } from '../../lib/auth/me';
import { ExchangeForm, ExchangeTable, useExchanges } from '../../features/exchanges';
import { useLookups } from '../../features/lookups';

export function ExchangesPage() {
  const exchanges = useExchanges();
  const me = useMe();
  const lookups = useLookups();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  const superadmin = hasRole(me.data, 'superadmin');
  return (
    <>
      <PageHeader title="Exchanges" description="Offices, their contacts and opening hours as partners see them.">
        <Button onClick={open}>New exchange</Button>
      </PageHeader>
      <QueryState query={exchanges}>
        {(data) => <ExchangeTable exchanges={data.data} withBranch={superadmin} lookups={lookups.data} />}
      </QueryState>
      <Modal opened={opened} onClose={close} title="New exchange" size="xl">
        <ExchangeForm
          exchange={null}
          withBranch={superadmin}
          onSaved={(x) => {
            close();
            void navigate(`/exchanges/${x.id}`);
          }}
        />
      </Modal>
    </>
  );
}
