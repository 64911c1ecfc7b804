import { Button, type ButtonProps } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { usePrintReceipt } from '../hooks/use-receipt';

/** Prints the order's receipt (the API's, with the office's address and local time) from the order's page. */
export function PrintReceiptButton({ orderId, ...props }: { orderId: number } & ButtonProps) {
  const print = usePrintReceipt();
  return (
    <Button
      variant="default"
      leftSection={<IconPrinter size={16} />}
      loading={print.isPending}
      onClick={() => print.mutate(orderId)}
      {...props}
    >
      Print receipt
    </Button>
  );
}
