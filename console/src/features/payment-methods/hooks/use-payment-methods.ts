import { useQuery } from '@tanstack/react-query';
import { useSave } from '../../../lib/forms/use-save';
import { lookupKeys } from '../../lookups';
import { paymentMethodKeys } from '../api/keys';
import {
  createPaymentMethod,
  listPaymentMethods,
  updatePaymentMethod,
  type NewPaymentMethod,
  type PaymentMethodChange,
} from '../api/payment-methods';

export function usePaymentMethods() {
  return useQuery({ queryKey: paymentMethodKeys.list(), queryFn: listPaymentMethods });
}

/** Every page names methods through the lookups: they refresh with the list. */
export function useUpdatePaymentMethod(id: number) {
  return useSave(
    (change: PaymentMethodChange) => updatePaymentMethod(id, change),
    [paymentMethodKeys.all, lookupKeys.all],
    (m) => `${m.name}: saved`,
  );
}

export function useCreatePaymentMethod() {
  return useSave(
    (body: NewPaymentMethod) => createPaymentMethod(body),
    [paymentMethodKeys.all, lookupKeys.all],
    (m) => `${m.name}: created`,
  );
}
