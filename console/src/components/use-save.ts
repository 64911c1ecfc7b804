import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from '../api/errors';
import { showDone } from './notify';

/**
 * A form's save: on success a short notice and the named lists refreshed; on a 400 the API's message for each
 * field under that field (other failures become a notice).
 */
export function useSave<In, Out>(save: (input: In) => Promise<Out>, refresh: string[][], done: (out: Out) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    meta: { fieldErrors: true },
    onSuccess: (out) => {
      for (const key of refresh) void queryClient.invalidateQueries({ queryKey: key });
      showDone(done(out));
    },
  });
}

/** Puts a 400's field messages on the form. */
export function fieldErrorsTo(form: Pick<UseFormReturnType<never>, 'setErrors'>) {
  return (err: unknown) => { if (err instanceof ApiError && err.status === 400) form.setErrors(err.fieldErrors); };
}
