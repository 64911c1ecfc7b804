import { Paper, Tabs, Title } from '@mantine/core';
import type { CashFormProps } from './amount-rules';
import { MovementForm } from './MovementForm';
import { TransferForm } from './TransferForm';
import { WatermarkForm } from './WatermarkForm';

/** What a staff user with cash:write records at an exchange, a tab each; the ledger's currency is picked at first. */
export function CashForms({ exchangeId, positions, lookups, currencyId }: CashFormProps) {
  const props = { exchangeId, positions, lookups, currencyId };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="record-cash-title">
      <Title order={2} size="h4" id="record-cash-title" mb="sm">
        Record cash
      </Title>
      <Tabs defaultValue="deposit" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="deposit">Deposit</Tabs.Tab>
          <Tabs.Tab value="withdrawal">Withdrawal</Tabs.Tab>
          <Tabs.Tab value="count">Count</Tabs.Tab>
          <Tabs.Tab value="transfer">Transfer</Tabs.Tab>
          <Tabs.Tab value="watermark">Low watermark</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="deposit">
          <MovementForm kind="deposit" {...props} />
        </Tabs.Panel>
        <Tabs.Panel value="withdrawal">
          <MovementForm kind="withdrawal" {...props} />
        </Tabs.Panel>
        <Tabs.Panel value="count">
          <MovementForm kind="count" {...props} />
        </Tabs.Panel>
        <Tabs.Panel value="transfer">
          <TransferForm {...props} />
        </Tabs.Panel>
        <Tabs.Panel value="watermark">
          <WatermarkForm {...props} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
