/**
 * The cleanup ledger: every resource a run creates is written here when created and deleted at the end of the
 * run in reverse order (children before parents), on failure and on Ctrl-C too. A resource already gone (404)
 * counts as deleted.
 * @module
 */

export interface LedgerEntry {
  readonly description: string;
  /** Path relative to the API base URL, e.g. `/nodebalancers/1001`. */
  readonly deletePath: string;
}

export interface CleanupOutcome {
  readonly deleted: number;
  /** Descriptions of what could not be deleted, with why: a person must remove these by hand (or `conform cleanup`). */
  readonly failed: readonly string[];
}

export class CleanupLedger {
  readonly #entries: LedgerEntry[] = [];

  record(entry: LedgerEntry): void {
    this.#entries.push(entry);
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Deletes everything recorded, newest first; `remove` answers the HTTP status of the DELETE. */
  async drain(remove: (deletePath: string) => Promise<number>): Promise<CleanupOutcome> {
    let deleted = 0;
    const failed: string[] = [];
    while (this.#entries.length > 0) {
      const entry = this.#entries.pop()!;
      try {
        const status = await remove(entry.deletePath);
        if (status < 300 || status === 404) deleted += 1;
        else failed.push(`${entry.description} (DELETE ${entry.deletePath} answered ${status})`);
      } catch (error) {
        failed.push(
          `${entry.description} (DELETE ${entry.deletePath} failed: ${(error as Error)?.message ?? error})`,
        );
      }
    }
    return { deleted, failed };
  }
}
