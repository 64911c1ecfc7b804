import type { Database } from '../../db/database.js';
import type { ListenHandlers, Listening } from '../../db/notifications.js';
import { CATALOG_CHANNEL } from '../../db/migrations/009_catalog_notify.js';
import { buildCatalog, type BranchCatalog } from './snapshot-build.js';
import { onLocalChange } from './snapshot-local.js';

export interface SnapshotHooks {
  built?: () => void;
  dropped?: (reason: 'change' | 'all' | 'untrusted') => void;
  log?: (level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>) => void;
}

interface Entry {
  catalog?: BranchCatalog;
  building?: Promise<BranchCatalog>;
}

/**
 * The per-branch catalogue snapshots of one process (docs/scaling.md). A branch's snapshot is built on its first read,
 * once however many requests wait for it, and dropped when a change to that branch commits: the database's
 * triggers NOTIFY (009_catalog_notify), heard on a LISTEN of this process's own; this process's own writes also
 * drop it at once (local.ts), so a caller reads its write. While the LISTEN is not established (not yet, or the
 * connection was lost) a notification could be missed, so no snapshot is trusted: `get` answers undefined and the
 * caller queries the database; every snapshot is dropped when listening starts again.
 */
export class CatalogSnapshots {
  private readonly entries = new Map<number, Entry>();
  private listening = false;
  private wasListening = false;
  private listener: Listening | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Database,
    private readonly listen: (channel: string, handlers: ListenHandlers) => Listening,
    private readonly hooks: SnapshotHooks = {},
  ) {
    this.unsubscribe = onLocalChange(db, (branch) => this.changed(branch));
  }

  /** The branch's snapshot, built if need be; undefined when none may be trusted (read the database then). */
  get(branchId: number | null): BranchCatalog | Promise<BranchCatalog> | undefined {
    if (!this.listening || branchId === null) {
      this.start();
      return undefined;
    }
    const entry = this.entries.get(branchId);
    if (entry) return entry.catalog ?? entry.building;
    const fresh: Entry = {};
    this.entries.set(branchId, fresh);
    fresh.building = buildCatalog(this.db, branchId).then(
      (catalog) => {
        // A change that committed while it was read dropped this entry: the result may predate it, so it is not kept.
        if (this.entries.get(branchId) === fresh) fresh.catalog = catalog;
        fresh.building = undefined;
        this.hooks.built?.();
        return catalog;
      },
      (err: unknown) => {
        if (this.entries.get(branchId) === fresh) this.entries.delete(branchId);
        throw err;
      },
    );
    return fresh.building;
  }

  /** Drops a branch's snapshot ('*': every branch's). */
  changed(branch: number | '*'): void {
    if (branch === '*') {
      this.entries.clear();
      this.hooks.dropped?.('all');
    } else if (this.entries.delete(branch)) {
      this.hooks.dropped?.('change');
    }
  }

  /** Starts listening, once; reads are served from the database until it listens. */
  private start(): void {
    if (this.listener) return;
    this.listener = this.listen(CATALOG_CHANNEL, {
      notify: (payload) => {
        const id = Number(payload);
        this.changed(payload !== '*' && Number.isSafeInteger(id) ? id : '*');
      },
      listening: () => {
        this.entries.clear();
        this.listening = true;
        if (this.wasListening) this.hooks.log?.('info', 'catalogue snapshot: listening again');
        this.wasListening = true;
      },
      lost: (err) => {
        if (!this.listening) return;
        this.hooks.log?.('warn', 'catalogue snapshot: notifications lost, reading the database until listening again', {
          err: err?.message,
        });
        this.listening = false;
        this.entries.clear();
        this.hooks.dropped?.('untrusted');
      },
    });
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.listening = false;
    this.entries.clear();
    await this.listener?.close();
  }
}
