import { Badge, type BadgeProps } from '@mantine/core';
import type { OrderStatus } from '../../../lib/api/types';
import { STATUS_COLOR, STATUS_LABEL } from './statuses';

export function StatusBadge({
  status,
  ...props
}: { status: OrderStatus } & BadgeProps & React.ComponentPropsWithoutRef<'div'>) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" title={status} data-status={status} {...props}>
      {STATUS_LABEL[status]}
    </Badge>
  );
}
