import { SegmentedControl } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useLookups } from '../../features/lookups';
import { useWebhooks, WebhookTable } from '../../features/webhooks';

/** The webhooks the user may see (its branch's, every one for a superadmin, an operator's own), with their health. */
export function WebhooksPage() {
  const lookups = useLookups();
  const [show, setShow] = useState('all');
  const hooks = useWebhooks(show === 'all' ? null : show === 'active');
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Partners register these with their keys; here you watch them deliver and help when they do not."
      />
      <SegmentedControl
        mb="md"
        value={show}
        onChange={setShow}
        aria-label="Which webhooks"
        data={[
          { value: 'all', label: 'All' },
          { value: 'active', label: 'Active' },
          { value: 'inactive', label: 'Deactivated' },
        ]}
      />
      <QueryState query={hooks}>{(data) => <WebhookTable hooks={data.data} lookups={lookups.data} />}</QueryState>
    </>
  );
}
