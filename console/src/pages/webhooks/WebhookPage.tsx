import { Anchor, Text } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { when } from '../../lib/format';
import {
  DeliveryDrawer,
  DeliveryLog,
  Health,
  useDeliveryLog,
  useWebhook,
  WebhookActions,
} from '../../features/webhooks';

/** One webhook: its health, its delivery log newest first, and each delivery's attempts (?delivery=<id>). */
export function WebhookPage() {
  const id = useParams().id!;
  const hook = useWebhook(id);
  const log = useDeliveryLog(id);
  const [params, setParams] = useSearchParams();
  const open = (deliveryId: string | null) => setParams(deliveryId ? { delivery: deliveryId } : {});
  return (
    <QueryState query={hook}>
      {(h) => (
        <>
          <PageHeader title="Webhook" description={h.url}>
            <Health hook={h} />
            <WebhookActions hook={h} />
          </PageHeader>
          <Text size="sm" mb="md">
            Events: {h.events.join(', ')} · created {when(h.createdAt)} ·{' '}
            <Anchor component={Link} to="/webhooks">
              all webhooks
            </Anchor>
          </Text>
          <DeliveryLog state={log} onOpen={open} />
          <DeliveryDrawer
            hookId={id}
            deliveryId={params.get('delivery')}
            active={h.isActive}
            onClose={() => open(null)}
          />
        </>
      )}
    </QueryState>
  );
}
