import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../api/errors';
import { showDone, showRefusal } from '../notify';

/**
 * A form's save: on success a short notice and the named lists refreshed; on a 400 the API's message for each
 * field under that field (other failures become a notice).
 */
export function useSave<In, Out>(save: (input: In) => Promise<Out>, refresh: QueryKey[], done: (out: Out) => string) {
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

interface FormWithErrors {
  getValues(): object;
  setErrors(errors: Record<string, string>): void;
}

interface Places {
  /** Where the form shows an error the API names otherwise (undefined: by its own name, when the form has that field). */
  placeOf?: (key: string) => string | undefined;
  /**
   * The form's words for the API's names it has no field for (`allowedOrigins.*` for every item of a list): a
   * notice about one says "One of the allowed origins must …", not "allowedOrigins.1 must …", a name the user never saw.
   */
  labels?: Record<string, string>;
}

/**
 * Puts a 400's field messages on the form, where `placeOf` says; what still has no place becomes a notice in the
 * form's words (`labels`), since the query client leaves these 400s to the form and an error under no field is not
 * seen at all.
 */
export function fieldErrorsTo(form: FormWithErrors, { placeOf = () => undefined, labels = {} }: Places = {}) {
  return (err: unknown) => {
    if (!(err instanceof ApiError) || err.status !== 400) return;
    const values = form.getValues();
    const placed: Record<string, string> = {};
    const unplaced: string[] = [];
    for (const [key, message] of Object.entries(err.fieldErrors)) {
      const place = placeOf(key) ?? (hasPath(values, key) ? key : undefined);
      if (place === undefined) unplaced.push(key);
      else placed[place] = underField(message, key);
    }
    form.setErrors(placed);
    if (unplaced.length > 0)
      showRefusal(err.messageAbout(unplaced, Object.fromEntries(unplaced.map((key) => [key, labelOf(labels, key)]))));
  };
}

/** A list's item (`allowedOrigins.2`) takes the label of every item (`allowedOrigins.*`) when it has none of its own. */
function labelOf(labels: Record<string, string>, key: string): string | undefined {
  return labels[key] ?? labels[key.replace(/\.\d+(?=\.|$)/g, '.*')];
}

/** Under its field a message need not name the field, by the API's name the user never sees: "decimals must …" reads "Must …". */
function underField(message: string, key: string): string {
  if (!message.startsWith(`${key} `)) return message;
  const rest = message.slice(key.length + 1);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

function hasPath(values: object, path: string): boolean {
  let at: unknown = values;
  for (const step of path.split('.')) {
    if (at === null || typeof at !== 'object' || !(step in at)) return false;
    at = (at as Record<string, unknown>)[step];
  }
  return true;
}
