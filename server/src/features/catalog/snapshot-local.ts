/**
 * This process's own catalogue writes, told to its snapshots as soon as they commit: the NOTIFY of the same
 * commit reaches this process's LISTEN a moment later, and a caller that reads right after its write must see it.
 * Keyed by the database object written through, so servers of one test process on separate pools stay apart.
 */
type Listener = (branch: number | '*') => void;

const listeners = new WeakMap<object, Set<Listener>>();

export function onLocalChange(db: object, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

/** Called after a catalogue write has committed (`db` is the database, not the transaction). */
export function catalogChanged(db: object, branch: number | '*' = '*'): void {
  for (const listener of listeners.get(db) ?? []) listener(branch);
}
