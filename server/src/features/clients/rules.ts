import type { ClientFields } from './repository.js';

export interface ClientInput {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

export interface FieldProblem {
  field: string;
  code: string;
  message: string;
}

// The practical address grammar of ajv-formats' "fast" mode: dot-atoms around one @, a dotted host name.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const E164 = /^\+[0-9]{7,15}$/;
const NAME_MAX = 100;
/**
 * Control characters (a name is one line) and the bidirectional embeddings, overrides and isolates: a name with
 * U+202E shows reversed, and in a list of names it can reorder what follows it on the staff's screen.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Section 7's rules for the fields present in `input` (all of them on creation, a subset on PATCH). Returns
 * the values as stored (trimmed, email lower-case) or every problem found, so a partner fixes them at once.
 */
export function checkClientFields(
  input: ClientInput,
): { ok: true; fields: Partial<ClientFields> } | { ok: false; problems: FieldProblem[] } {
  const fields: Partial<ClientFields> = {};
  const problems: FieldProblem[] = [];
  const name = (field: 'firstName' | 'lastName', column: 'first_name' | 'last_name') => {
    const raw = input[field];
    if (raw === undefined) return;
    const value = raw.trim();
    // Characters as Postgres counts them (code points), not UTF-16 units.
    const length = [...value].length;
    if (length === 0) problems.push({ field, code: 'tooShort', message: `${field} should not be empty` });
    else if (length > NAME_MAX)
      problems.push({ field, code: 'tooLong', message: `${field} must be at most ${NAME_MAX} characters long` });
    else if (NAME_FORBIDDEN.test(value))
      problems.push({
        field,
        code: 'invalidCharacter',
        message: `${field} must not contain control or bidirectional formatting characters`,
      });
    else fields[column] = value;
  };
  name('firstName', 'first_name');
  name('lastName', 'last_name');

  if (input.email !== undefined) {
    const email = input.email.trim().toLowerCase();
    const local = email.split('@')[0];
    if (email.length > 254 || local.length > 64 || !EMAIL.test(email))
      problems.push({ field: 'email', code: 'invalidFormat', message: 'email must be an email address' });
    else fields.email = email;
  }
  if (input.phone !== undefined) {
    const phone = input.phone.trim();
    if (!E164.test(phone))
      problems.push({
        field: 'phone',
        code: 'invalidFormat',
        message: 'phone must be in E.164 format: + then 7 to 15 digits',
      });
    else fields.phone = phone;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, fields };
}
