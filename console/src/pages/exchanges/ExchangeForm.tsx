import { Button, Group, Paper, Select, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../api/errors';
import type { Exchange } from '../../api/types';
import { branchOptions, useLookups } from '../../components/lookups';
import { showDone } from '../../components/notify';
import { ScheduleEditor, scheduleOf, weekOf } from './ScheduleEditor';
import { useSaveExchange } from './use-exchanges';

/** Contacts, location and weekly hours of an exchange; a superadmin also picks the branch of a new one. */
export function ExchangeForm({ exchange, withBranch, onSaved }: { exchange: Exchange | null; withBranch: boolean; onSaved?: (e: Exchange) => void }) {
  const lookups = useLookups();
  const save = useSaveExchange(exchange?.id ?? null);
  const [week, setWeek] = useState(weekOf(exchange?.schedule ?? []));
  const form = useForm({
    initialValues: {
      branchId: '', name: exchange?.name ?? '', address: exchange?.address ?? '', city: exchange?.city ?? '',
      phoneNumber: exchange?.contacts.phoneNumber ?? '', chat: exchange?.contacts.chat ?? '',
      latitude: exchange?.location ? String(exchange.location.latitude) : '', longitude: exchange?.location ? String(exchange.location.longitude) : '',
      timezone: exchange?.timezone ?? 'UTC', isActive: exchange?.isActive ?? true,
    },
  });
  const submit = form.onSubmit((v) => {
    const location = v.latitude.trim() === '' && v.longitude.trim() === '' ? null : { latitude: Number(v.latitude), longitude: Number(v.longitude) };
    save.mutate({
      ...(withBranch && exchange === null ? { branchId: Number(v.branchId) } : {}),
      name: v.name, address: v.address, city: v.city, contacts: { phoneNumber: v.phoneNumber, chat: v.chat },
      location, timezone: v.timezone, isActive: v.isActive, schedule: scheduleOf(week),
    }, {
      onSuccess: (saved) => { showDone(`${saved.name}: saved`); onSaved?.(saved); },
      onError: (err) => { if (err instanceof ApiError && err.status === 400) form.setErrors(err.fieldErrors); },
    });
  });
  const e = form.errors as Record<string, string>;
  return (
    <form onSubmit={submit} aria-label={exchange ? `Edit ${exchange.name}` : 'New exchange'}>
      <Stack gap="md">
        <Paper withBorder p="md">
          <Title order={2} size="h5" mb="xs">Office</Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
          {withBranch && exchange === null && <Select label="Branch" required data={branchOptions(lookups.data)} {...form.getInputProps('branchId')} />}
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput label="Address" {...form.getInputProps('address')} />
          <TextInput label="City" {...form.getInputProps('city')} />
          <TextInput label="Phone" {...form.getInputProps('phoneNumber')} error={e['contacts.phoneNumber']} />
          <TextInput label="Chat link" placeholder="https://…" {...form.getInputProps('chat')} error={e['contacts.chat']} />
          <TextInput label="Latitude" inputMode="decimal" {...form.getInputProps('latitude')} error={e['location.latitude'] ?? e.location} />
          <TextInput label="Longitude" inputMode="decimal" {...form.getInputProps('longitude')} error={e['location.longitude']} />
          <TextInput label="Time zone" description="IANA name, e.g. Europe/Lisbon" {...form.getInputProps('timezone')} />
          </SimpleGrid>
          <Switch mt="sm" label="Open to partners (active)" {...form.getInputProps('isActive', { type: 'checkbox' })} />
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h5" mb="xs">Weekly hours</Title>
          <ScheduleEditor week={week} onChange={setWeek} errors={e} />
        </Paper>
      </Stack>
      <Group mt="md"><Button type="submit" loading={save.isPending}>Save</Button></Group>
    </form>
  );
}
