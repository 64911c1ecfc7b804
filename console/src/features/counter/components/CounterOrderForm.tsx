import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPrinter } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import type { Lookups } from '../../../lib/api/types';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { exchangeOptions } from '../../lookups';
import { usePrintReceipt } from '../../orders';
import { useAttemptKey, useCreateClient, useCreateCounterOrder, useEstimate } from '../hooks/use-counter';
import { ClientPicker } from './ClientPicker';
import { amountProblem, estimateRequest, PLACES, type CounterFields } from './counter-rules';
import { EstimateLine } from './EstimateLine';

const EMPTY_CLIENT = { firstName: '', lastName: '', email: '', phone: '' };

/**
 * An order for a walk-in client: the pair at an exchange, one of the two amounts, the server's estimate as it is
 * typed, the client, and *Create and print*, which places the order, prints its receipt and opens the order.
 */
export function CounterOrderForm({ lookups }: { lookups: Lookups }) {
  const exchanges = lookups.exchanges.filter((e) => e.isActive);
  const decimalsOf = (id: string | null) => lookups.currencies.find((c) => String(c.id) === id)?.decimals;
  const form = useForm<CounterFields>({
    initialValues: {
      exchangeId: exchanges[0] ? String(exchanges[0].id) : null,
      currency1Id: null,
      currency2Id: null,
      direction: 'source',
      amount: '',
      clientMode: 'existing',
      clientId: null,
      clientLabel: '',
      newClient: EMPTY_CLIENT,
      paymentMethodSourceId: null,
      paymentMethodDestId: null,
    },
    validate: {
      exchangeId: (v) => (v ? null : 'Pick an exchange'),
      currency1Id: (v) => (v ? null : 'Pick a currency'),
      currency2Id: (v, values) =>
        !v ? 'Pick a currency' : v === values.currency1Id ? 'Must differ from the currency the client gives' : null,
      amount: (v, values) =>
        amountProblem(v, decimalsOf(values.direction === 'source' ? values.currency1Id : values.currency2Id)),
      clientId: (v, values) => (values.clientMode === 'existing' && !v ? 'Pick a client, or create a new one' : null),
      newClient: {
        firstName: (v, values) => (values.clientMode === 'new' && !v.trim() ? 'Enter the first name' : null),
        lastName: (v, values) => (values.clientMode === 'new' && !v.trim() ? 'Enter the last name' : null),
        email: (v, values) => (values.clientMode === 'new' && !v.trim() ? 'Enter an email address' : null),
        phone: (v, values) => (values.clientMode === 'new' && !v.trim() ? 'Enter a phone number' : null),
      },
    },
  });
  const values = form.getValues();
  const saved = useUnsavedChanges(values.amount.trim() !== '', 'New counter order');
  const [asked] = useDebouncedValue(estimateRequest(values, lookups), 300, { leading: false });
  const estimate = useEstimate(asked);
  const createClient = useCreateClient();
  const createOrder = useCreateCounterOrder();
  const clientKey = useAttemptKey();
  const orderKey = useAttemptKey();
  const print = usePrintReceipt();
  const navigate = useNavigate();
  const onError = fieldErrorsTo(form, { placeOf: (key) => PLACES[key] });

  const submit = async (v: CounterFields) => {
    let userId = v.clientId ? Number(v.clientId) : null;
    if (v.clientMode === 'new') {
      const fields = Object.fromEntries(
        Object.entries(v.newClient).map(([k, x]) => [k, x.trim()]),
      ) as typeof v.newClient;
      const client = await createClient
        .mutateAsync({ body: fields, idempotencyKey: clientKey.of(fields) })
        .catch(onError);
      if (!client) return;
      clientKey.renew();
      userId = client.id;
      // Kept if the order is refused, so trying again does not create the client twice.
      form.setValues({
        clientMode: 'existing',
        clientId: String(client.id),
        clientLabel: `${client.firstName} ${client.lastName} · ${client.phone}`,
        newClient: EMPTY_CLIENT,
      });
    }
    const amount = Number(v.amount.trim());
    const body = {
      cashbox: { id: Number(v.exchangeId) },
      currency1: { id: Number(v.currency1Id) },
      currency2: { id: Number(v.currency2Id) },
      operationType: 'offer' as const,
      ...(v.direction === 'source' ? { clientAmount: amount } : { exchangeAmount: amount }),
      ...(userId !== null ? { user: { id: userId } } : {}),
      ...(v.paymentMethodSourceId ? { paymentMethodSource: { id: Number(v.paymentMethodSourceId) } } : {}),
      ...(v.paymentMethodDestId ? { paymentMethodDest: { id: Number(v.paymentMethodDestId) } } : {}),
    };
    const order = await createOrder.mutateAsync({ body, idempotencyKey: orderKey.of(body) }).catch(onError);
    if (!order) return;
    orderKey.renew();
    saved();
    print.mutate(order.id);
    void navigate(`/orders/${order.id}`);
  };

  const currencies = lookups.currencies.map((c) => ({ value: String(c.id), label: `${c.code} — ${c.name}` }));
  const methods = lookups.paymentMethods
    .filter((m) => m.isActive && (m.exchangeId === null || String(m.exchangeId) === values.exchangeId))
    .map((m) => ({ value: String(m.id), label: m.name }));
  const amountTicker = lookups.currencies.find(
    (c) => String(c.id) === (values.direction === 'source' ? values.currency1Id : values.currency2Id),
  )?.code;
  return (
    <form aria-label="New counter order" onSubmit={form.onSubmit((v) => void submit(v))}>
      <Stack maw={720}>
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Exchange
            </Title>
            <Select
              label="Exchange"
              required
              allowDeselect={false}
              data={exchangeOptions({ ...lookups, exchanges })}
              {...form.getInputProps('exchangeId')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <Select
                label="Client gives"
                required
                searchable
                data={currencies}
                {...form.getInputProps('currency1Id')}
              />
              <Select
                label="Client receives"
                required
                searchable
                data={currencies}
                {...form.getInputProps('currency2Id')}
              />
            </SimpleGrid>
            <SegmentedControl
              aria-label="The amount typed is"
              data={[
                { value: 'source', label: 'What the client gives' },
                { value: 'dest', label: 'What the client receives' },
              ]}
              {...form.getInputProps('direction')}
            />
            <TextInput
              label={values.direction === 'source' ? 'Amount the client gives' : 'Amount the client receives'}
              required
              inputMode="decimal"
              autoComplete="off"
              maw={280}
              rightSection={
                <Text size="xs" c="dimmed">
                  {amountTicker}
                </Text>
              }
              rightSectionWidth={56}
              {...form.getInputProps('amount')}
            />
            <EstimateLine asked={asked} estimate={estimate} />
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Client
          </Title>
          <ClientPicker form={form} />
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Payment methods
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label="Client pays by (optional)"
              clearable
              data={methods}
              {...form.getInputProps('paymentMethodSourceId')}
            />
            <Select
              label="Client is paid by (optional)"
              clearable
              data={methods}
              {...form.getInputProps('paymentMethodDestId')}
            />
          </SimpleGrid>
        </Paper>
        <Group>
          <Button
            type="submit"
            leftSection={<IconPrinter size={16} />}
            loading={createClient.isPending || createOrder.isPending}
          >
            Create and print
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
