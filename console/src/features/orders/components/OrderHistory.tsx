import { Paper, Text, Timeline, Title } from '@mantine/core';
import type { OrderDetail } from '../../../lib/api/types';
import { when } from '../../../lib/format';
import { PartnerText } from '../../../components/PartnerText';
import { STATUS_LABEL } from './statuses';

/** Who moved the order, by their login: "staff #3" named no one a counter knows. */
function actor(a: OrderDetail['history'][number]['actor']): string {
  const staff = a.staffEmail ?? 'a former staff user';
  if (a.type === 'staff') return staff;
  if (a.type === 'api_key') return a.staffUserId ? `API key of ${staff}` : 'partner API key';
  return 'the system';
}

/** Every status the order went through, who moved it, when, and why. */
export function OrderHistory({ order }: { order: OrderDetail }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="history-title">
      <Title order={2} size="h5" id="history-title" mb="sm">
        Status history
      </Title>
      <Timeline active={order.history.length - 1} bulletSize={14} lineWidth={2}>
        {order.history.map((h, i) => (
          <Timeline.Item key={i} title={STATUS_LABEL[h.toStatus]} data-history-status={h.toStatus}>
            <Text size="xs" c="dimmed">
              {when(h.createdAt)} · {actor(h.actor)}
            </Text>
            {h.comment && (
              <Text size="sm">
                “<PartnerText>{h.comment}</PartnerText>”
              </Text>
            )}
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  );
}
