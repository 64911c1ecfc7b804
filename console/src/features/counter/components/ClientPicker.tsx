import { Select, SegmentedControl, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { useClientSearch } from '../hooks/use-counter';
import type { CounterFields } from './counter-rules';

/**
 * Who the order is for: a client found by name, email or phone, or one created with the order (the admin clients
 * API asks for all four of name, surname, email and phone).
 */
export function ClientPicker({ form }: { form: UseFormReturnType<CounterFields> }) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const found = useClientSearch(q);
  const values = form.getValues();
  const options = (found.data?.data ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.firstName} ${c.lastName} · ${c.phone}`,
  }));
  // The client picked stays an option while another search is typed.
  if (values.clientId && values.clientLabel && !options.some((o) => o.value === values.clientId))
    options.unshift({ value: values.clientId, label: values.clientLabel });
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Client"
        data={[
          { value: 'existing', label: 'Existing client' },
          { value: 'new', label: 'New client' },
        ]}
        {...form.getInputProps('clientMode')}
      />
      {values.clientMode === 'existing' ? (
        <Select
          label="Client"
          placeholder="Type a name, email or phone"
          searchable
          required
          data={options}
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          nothingFoundMessage={q.length < 2 ? 'Type at least 2 characters' : 'No client found'}
          {...form.getInputProps('clientId')}
          onChange={(v: string | null, option: { label: string } | null) => {
            form.setFieldValue('clientId', v);
            form.setFieldValue('clientLabel', option?.label ?? '');
          }}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <TextInput label="First name" required autoComplete="off" {...form.getInputProps('newClient.firstName')} />
          <TextInput label="Last name" required autoComplete="off" {...form.getInputProps('newClient.lastName')} />
          <TextInput
            label="Phone"
            required
            type="tel"
            placeholder="+351912345678"
            {...form.getInputProps('newClient.phone')}
          />
          <TextInput label="Email" required type="email" {...form.getInputProps('newClient.email')} />
        </SimpleGrid>
      )}
    </Stack>
  );
}
