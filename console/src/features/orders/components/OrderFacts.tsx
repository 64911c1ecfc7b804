import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { OrderDetail } from '../../../lib/api/types';
import { amount, when } from '../../../lib/format';
import { nameOf, useLookups } from '../../lookups';
import { PartnerText } from '../../../components/PartnerText';
import { can, useMe } from '../../../lib/auth/me';
import { useOrderClient } from '../hooks/use-order';
import { TimeToPay } from './TimeToPay';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** What the counter needs to serve the order: amounts, currencies, where, how, and who. */
export function OrderFacts({ order }: { order: OrderDetail }) {
  const lookups = useLookups();
  // Who the client is needs clients:read as well (the API refuses the rest), so a cashier without it is not asked.
  const readsClients = can(useMe().data, 'clients:read');
  const client = useOrderClient(order.id, order.user !== null && readsClients);
  const methods = lookups.data?.paymentMethods;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Paper withBorder p="md" component="section" aria-label="Amounts">
        <Title order={2} size="h5" mb="xs">
          Exchange
        </Title>
        <SimpleGrid cols={2} spacing="xs">
          <Fact label="Client gives">
            {amount(order.clientAmount)} {order.currency1.code}
          </Fact>
          <Fact label="Client gets">
            {amount(order.exchangeAmount)} {order.currency2.code}
          </Fact>
          <Fact label="Rate">{order.rate === undefined ? '— (financial operation)' : amount(order.rate)}</Fact>
          <Fact label="Operation">{order.operationType}</Fact>
          <Fact label="Exchange">{nameOf(lookups.data?.exchanges, order.cashbox.id)}</Fact>
          <Fact label="Hashed id">{order.hashedId}</Fact>
          <Fact label="Pays with">{nameOf(methods, order.paymentMethodSource?.id)}</Fact>
          <Fact label="Receives by">{nameOf(methods, order.paymentMethodDest?.id)}</Fact>
          <Fact label="Created">{when(order.createdAt)}</Fact>
          <Fact label="Changed">{when(order.updatedAt)}</Fact>
          {order.expiresAt !== null && (
            <Fact label="Time left to pay">
              <TimeToPay expiresAt={order.expiresAt} />
            </Fact>
          )}
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" component="section" aria-label="Client">
        <Title order={2} size="h5" mb="xs">
          Client
        </Title>
        <Stack gap="xs">
          {order.user === null && (
            <Text size="sm" c="dimmed">
              No client account is attached.
            </Text>
          )}
          {client.data && (
            <>
              <Fact label="Name">
                <PartnerText>{client.data.firstName}</PartnerText> <PartnerText>{client.data.lastName}</PartnerText>
              </Fact>
              <Fact label="Email">{client.data.email}</Fact>
              <Fact label="Phone">{client.data.phone}</Fact>
            </>
          )}
          {client.data === null && (
            <Text size="sm" c="dimmed">
              Client #{order.user?.id} is not readable here.
            </Text>
          )}
          {order.user !== null && !readsClients && (
            <Text size="sm" c="dimmed">
              Client #{order.user.id}: your account may not read clients.
            </Text>
          )}
          {order.tgNickName && (
            <Fact label="Telegram">
              <PartnerText>{order.tgNickName}</PartnerText>
            </Fact>
          )}
          {order.userWallet && (
            <Fact label="Wallet">
              <PartnerText>{order.userWallet}</PartnerText>
            </Fact>
          )}
          {order.clientComment && (
            <Fact label="Client's note">
              <PartnerText>{order.clientComment}</PartnerText>
            </Fact>
          )}
          {order.comment && (
            <Fact label="Internal note">
              <PartnerText>{order.comment}</PartnerText>
            </Fact>
          )}
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
