import { Badge } from '@mantine/core';
import type { OrderStatus } from '../../api/types';
import { STATUS_COLOR, STATUS_LABEL } from './statuses';

export function StatusBadge({ status }: { status: OrderStatus }) {
  return <Badge color={STATUS_COLOR[status]} variant="light" title={status} data-status={status}>{STATUS_LABEL[status]}</Badge>;
}
