/**
 * For tests that start `pxs` processes: each loads the built CLI and opens its database, and one test that
 * starts four of them took 27 s on the two shared cores with the other test file and a busy process beside it.
 */
export const STARTS_PROCESSES = { timeout: 120_000 };
