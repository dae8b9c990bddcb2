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
  /** Entries whose DELETE failed: still on the target. */
  readonly #undeleted: LedgerEntry[] = [];

  record(entry: LedgerEntry): void {
    this.#entries.push(entry);
  }

  get size(): number {
    return this.#entries.length;
  }

  /**
   * What is still on the target as far as the ledger knows: entries not deleted yet (one whose DELETE is in flight
   * included) and those whose DELETE failed. Read when a second signal stops the run before cleanup ends.
   */
  left(): readonly LedgerEntry[] {
    return [...this.#undeleted, ...this.#entries];
  }

  /** Deletes everything recorded, newest first; `remove` answers the HTTP status of the DELETE. */
  async drain(remove: (deletePath: string) => Promise<number>): Promise<CleanupOutcome> {
    let deleted = 0;
    const failed: string[] = [];
    while (this.#entries.length > 0) {
      // Popped only once its DELETE is over: until then it is what `left()` names.
      const entry = this.#entries.at(-1)!;
      let problem: string | undefined;
      try {
        const status = await remove(entry.deletePath);
        if (status < 300 || status === 404) deleted += 1;
        else problem = `${entry.description} (DELETE ${entry.deletePath} answered ${status})`;
      } catch (error) {
        problem = `${entry.description} (DELETE ${entry.deletePath} failed: ${(error as Error)?.message ?? error})`;
      }
      this.#entries.pop();
      if (problem !== undefined) {
        failed.push(problem);
        this.#undeleted.push(entry);
      }
    }
    return { deleted, failed };
  }
}
