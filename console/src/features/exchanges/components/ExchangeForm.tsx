import { Button, Group, Paper, Select, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { Exchange } from '../../../lib/api/types';
import { branchOptions, useLookups } from '../../lookups';
import { showDone } from '../../../lib/notify';
import { fieldErrorsInWords } from '../../../lib/forms/field-words';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { SCHEDULE_WORDS, ScheduleEditor, scheduleErrorPlace, scheduleOf, weekOf } from './ScheduleEditor';
import { useSaveExchange } from '../hooks/use-exchanges';

/** Where the form shows the API's errors about the nested parts of the body it sends. */
const PLACES: Record<string, string> = {
  'contacts.phoneNumber': 'phoneNumber',
  'contacts.chat': 'chat',
  location: 'latitude',
  'location.latitude': 'latitude',
  'location.longitude': 'longitude',
};

/** A coordinate is a number; one without the other is no place at all, and an empty one must never become 0. */
const coordinate =
  (other: 'latitude' | 'longitude') => (value: string, values: { latitude: string; longitude: string }) => {
    if (value.trim() === '') return values[other].trim() === '' ? null : 'Give both latitude and longitude, or neither';
    return Number.isFinite(Number(value.trim())) ? null : 'A decimal number, such as 38.7078';
  };

/** Whole seconds from 0 to a week, as the API takes them; typed, so never a float's rounding. */
const windowSeconds = (value: string) =>
  /^\d{1,6}$/.test(value.trim()) && Number(value.trim()) <= 604_800 ? null : 'Whole seconds from 0 to 604800 (7 days)';

/** Contacts, location and weekly hours of an exchange; a superadmin also picks the branch of a new one. */
export function ExchangeForm({
  exchange,
  withBranch,
  onSaved,
}: {
  exchange: Exchange | null;
  withBranch: boolean;
  onSaved?: (e: Exchange) => void;
}) {
  const lookups = useLookups();
  const save = useSaveExchange(exchange?.id ?? null);
  const [week, setWeek] = useState(weekOf(exchange?.schedule ?? []));
  const [savedWeek, setSavedWeek] = useState(week);
  const form = useForm({
    initialValues: {
      branchId: '',
      name: exchange?.name ?? '',
      address: exchange?.address ?? '',
      city: exchange?.city ?? '',
      phoneNumber: exchange?.contacts.phoneNumber ?? '',
      chat: exchange?.contacts.chat ?? '',
      latitude: exchange?.location ? String(exchange.location.latitude) : '',
      longitude: exchange?.location ? String(exchange.location.longitude) : '',
      timezone: exchange?.timezone ?? 'UTC',
      isActive: exchange?.isActive ?? true,
      paymentWindowSeconds: String(exchange?.paymentWindowSeconds ?? 3600),
    },
    validate: {
      latitude: coordinate('longitude'),
      longitude: coordinate('latitude'),
      paymentWindowSeconds: windowSeconds,
    },
  });
  const edited = [
    form.isDirty() && 'office details',
    JSON.stringify(week) !== JSON.stringify(savedWeek) && 'weekly hours',
  ].filter(Boolean);
  const saved = useUnsavedChanges(edited.length > 0, `${exchange?.name ?? 'New exchange'}: ${edited.join(' and ')}`);
  const submit = form.onSubmit((v) => {
    const location =
      v.latitude.trim() === '' ? null : { latitude: Number(v.latitude.trim()), longitude: Number(v.longitude.trim()) };
    const schedule = scheduleOf(week);
    save.mutate(
      {
        ...(withBranch && exchange === null ? { branchId: Number(v.branchId) } : {}),
        name: v.name,
        address: v.address,
        city: v.city,
        contacts: { phoneNumber: v.phoneNumber, chat: v.chat },
        location,
        timezone: v.timezone,
        isActive: v.isActive,
        paymentWindowSeconds: Number(v.paymentWindowSeconds.trim()),
        schedule,
      },
      {
        onSuccess: (x) => {
          saved();
          form.resetDirty(v);
          setSavedWeek(week);
          showDone(`${x.name}: saved`);
          onSaved?.(x);
        },
        onError: fieldErrorsInWords(form, SCHEDULE_WORDS, {
          placeOf: (key) => PLACES[key] ?? scheduleErrorPlace(key, schedule),
        }),
      },
    );
  });
  const e = form.errors as Record<string, string>;
  return (
    <form onSubmit={submit} aria-label={exchange ? `Edit ${exchange.name}` : 'New exchange'}>
      <Stack gap="md">
        <Paper withBorder p="md">
          <Title order={2} size="h5" mb="xs">
            Office
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
            {withBranch && exchange === null && (
              <Select label="Branch" required data={branchOptions(lookups.data)} {...form.getInputProps('branchId')} />
            )}
            <TextInput label="Name" required {...form.getInputProps('name')} />
            <TextInput label="Address" {...form.getInputProps('address')} />
            <TextInput label="City" {...form.getInputProps('city')} />
            <TextInput label="Phone" {...form.getInputProps('phoneNumber')} />
            <TextInput label="Chat link" placeholder="https://…" {...form.getInputProps('chat')} />
            <TextInput label="Latitude" inputMode="decimal" {...form.getInputProps('latitude')} />
            <TextInput label="Longitude" inputMode="decimal" {...form.getInputProps('longitude')} />
            <TextInput
              label="Time zone"
              description="IANA name, e.g. Europe/Lisbon"
              {...form.getInputProps('timezone')}
            />
          </SimpleGrid>
          <TextInput
            mt="xs"
            label="Payment window (seconds)"
            description="Unpaid orders are cancelled after it: 3600 is an hour, at most 604800 (7 days); 0: never"
            inputMode="numeric"
            {...form.getInputProps('paymentWindowSeconds')}
          />
          <Switch mt="sm" label="Open to partners (active)" {...form.getInputProps('isActive', { type: 'checkbox' })} />
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h5" mb="xs">
            Weekly hours
          </Title>
          <ScheduleEditor week={week} onChange={setWeek} errors={e} />
        </Paper>
      </Stack>
      <Group mt="md">
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </Group>
    </form>
  );
}
