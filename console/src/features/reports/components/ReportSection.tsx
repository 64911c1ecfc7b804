import { Button, Group, Paper, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { GroupBy, TurnoverQuery } from '../api/reports';
import { useExportTurnover } from '../hooks/use-reports';

const BY: Record<GroupBy, string> = { day: 'day', exchange: 'office', currency: 'currency', staff: 'cashier' };

/** A part of the report, with the download of its own rows as the API's CSV. */
export function ReportSection({
  title,
  query,
  children,
}: {
  title: string;
  query: TurnoverQuery;
  children: ReactNode;
}) {
  const download = useExportTurnover();
  const id = `report-${query.groupBy}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} />}
          loading={download.isPending}
          onClick={() => download.mutate(query)}
          aria-label={`Download CSV by ${BY[query.groupBy]}`}
        >
          Download CSV
        </Button>
      </Group>
      {children}
    </Paper>
  );
}
