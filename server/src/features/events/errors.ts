import { declareErrors } from '../../domain-error.js';

/** Why the event feed could not be read from the position asked for. */
export const EventError = declareErrors('events', {
  cursorInvalid: () => ({}),
});
