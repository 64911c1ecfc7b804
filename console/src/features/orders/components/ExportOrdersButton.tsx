import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { OrderFilters } from '../api/keys';
import { useExportOrders } from '../hooks/use-receipt';

/** Every order of the filters shown (status, exchange) as a CSV file, fetched with the staff token. */
export function ExportOrdersButton({ filters }: { filters: OrderFilters }) {
  const download = useExportOrders();
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={download.isPending}
      onClick={() => download.mutate(filters)}
    >
      Download CSV
    </Button>
  );
}
