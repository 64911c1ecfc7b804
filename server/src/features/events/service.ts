import * as repo from './repository.js';

/** The events a reader may see after a cursor, oldest first: the stored webhook envelopes (repository.ts). */
export const eventsAfter: typeof repo.eventsAfter = (...args) => repo.eventsAfter(...args);
