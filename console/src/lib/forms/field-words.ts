import { ApiError } from '../api/errors';
import { fieldErrorsTo } from './use-save';

type Places = NonNullable<Parameters<typeof fieldErrorsTo>[1]>;

/**
 * The form's words for the API's names of other fields, as a sentence mentions them: the API says "must not be
 * greater than maxAmount 10000", the form says "must not be greater than the maximum 10000".
 */
export type FieldWords = Record<string, string>;

/**
 * `fieldErrorsTo`, with the API's names that a message mentions after its subject (`words`'s keys) in the form's
 * words: under the Minimum field "Must not be greater than the maximum 10000", never "… than maxAmount 10000", a name
 * the user never saw. The subject (the sentence's first word) is left to `fieldErrorsTo`, which drops it under its
 * field or gives it its label in a notice.
 */
export function fieldErrorsInWords(form: Parameters<typeof fieldErrorsTo>[0], words: FieldWords, places: Places = {}) {
  const put = fieldErrorsTo(form, places);
  return (err: unknown) => put(err instanceof ApiError ? reworded(err, words) : err);
}

/** The same refusal, its sentences naming other fields in the form's words. */
export function reworded(err: ApiError, words: FieldWords): ApiError {
  const message = err.body?.message;
  if (err.body === undefined || message === undefined) return err;
  const sentence = (m: string) => {
    const subject = /^\S+/.exec(m)?.[0] ?? '';
    return subject + inWords(m.slice(subject.length), words);
  };
  return new ApiError(
    err.status,
    { ...err.body, message: Array.isArray(message) ? message.map(sentence) : sentence(message) },
    err.retryAfter,
  );
}

/** Every whole mention of a name (not part of a longer name or a path such as `schedule.1.openTime`) in the form's words. */
export function inWords(text: string, words: FieldWords): string {
  return Object.entries(words).reduce(
    (t, [name, said]) =>
      t.replace(new RegExp(`(?<![\\w./])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'g'), said),
    text,
  );
}
