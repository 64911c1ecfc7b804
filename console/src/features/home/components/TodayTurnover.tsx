import { Anchor, Group, Paper, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from '../../../lib/api/types';
import { useLookups } from '../../lookups';
import { TurnoverTable } from '../../reports';

/** What today's settled orders moved, per currency (the turnover report's figures), and the way to the full report. */
export function TodayTurnover({ rows }: { rows: NonNullable<Dashboard['turnover']> }) {
  const lookups = useLookups();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="turnover-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="turnover-title">
          Today's turnover
        </Title>
        <Anchor component={Link} to="/reports" size="sm">
          Reports
        </Anchor>
      </Group>
      <TurnoverTable rows={rows} label={null} lookups={lookups.data} caption="Today's turnover per currency" />
    </Paper>
  );
}
