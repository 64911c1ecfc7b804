import { Anchor, List, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { money } from '../../../lib/decimal';
import { useLowPositions } from '../hooks/use-cash';

/**
 * One request per exchange is cheap for a branch's handful; a superadmin's whole network is not, and is left to each
 * exchange's Cash page.
 */
const MAX_EXCHANGES = 20;

/** The home page's short list of cash running low: each position below its watermark, a link to its Cash page. */
export function LowPositions({
  exchanges,
  decimalsOf,
}: {
  exchanges: { id: number; name: string }[];
  decimalsOf: (currencyId: number) => number | undefined;
}) {
  const { pending, low } = useLowPositions(exchanges.length > MAX_EXCHANGES ? [] : exchanges);
  if (pending || low.length === 0) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="low-cash-title" data-low-cash>
      <Title order={2} size="h5" id="low-cash-title" mb="xs">
        Cash below its watermark
      </Title>
      <List spacing={4} size="sm">
        {low.map(({ exchange, position: p }) => (
          <List.Item key={`${exchange.id}-${p.currency.id}`}>
            <Anchor component={Link} to={`/cash?exchange=${exchange.id}&currency=${p.currency.id}`}>
              {exchange.name}: {p.currency.ticker}
            </Anchor>{' '}
            <Text span size="sm" c="dimmed">
              {money(p.available, decimalsOf(p.currency.id))} available, watermark{' '}
              {money(p.lowWatermark, decimalsOf(p.currency.id))}
            </Text>
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
