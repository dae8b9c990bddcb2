/**
 * The cleanup ledger: every resource a run creates is written here when created and deleted at the end of the
 * run in reverse order (children before parents), on failure and on Ctrl-C too. A resource already gone (404)
 * counts as deleted. A resource the target made but whose answer did not say which (no id, no `Location`) cannot be
 * deleted by path: it is kept apart, by the label the run gave it, and listed at the end as a cleanup failure
 * (`conform cleanup` finds it by that label).
 * @module
 */

export interface LedgerEntry {
  readonly description: string;
  /** Path relative to the API base URL, e.g. `/nodebalancers/1001`. */
  readonly deletePath: string;
}

/** A resource made but not identified by its answer: only its label (when it had one) finds it. */
export interface UnidentifiedEntry {
  readonly description: string;
  readonly label: string | undefined;
}

/** The cleanup failure that lists an unidentified resource, and how to find it. */
export function unidentifiedFailure(entry: UnidentifiedEntry): string {
  return entry.label === undefined
    ? `${entry.description} (the answer did not say what it created, and it has no label: remove it by hand)`
    : `${entry.description} labelled ${entry.label} (the answer did not say what it created: \`conform cleanup --prefix ${entry.label}\` finds it by label)`;
}

/** What the ledger knows is still on the target: entries to delete by path, and what only a label finds. */
export interface LeftOnLedger {
  readonly entries: readonly LedgerEntry[];
  readonly unidentified: readonly UnidentifiedEntry[];
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
  readonly #unidentified: UnidentifiedEntry[] = [];

  record(entry: LedgerEntry): void {
    this.#entries.push(entry);
  }

  recordUnidentified(entry: UnidentifiedEntry): void {
    this.#unidentified.push(entry);
  }

  /** What the run made but could not identify: still on the target whatever the cleanup does. */
  unidentified(): readonly UnidentifiedEntry[] {
    return [...this.#unidentified];
  }

  get size(): number {
    return this.#entries.length;
  }

  /**
   * What is still on the target as far as the ledger knows: entries not deleted yet (one whose DELETE is in flight
   * included), those whose DELETE failed, and what was made but not identified (only its label finds it). Read
   * when a second signal stops the run before cleanup ends.
   */
  left(): LeftOnLedger {
    return { entries: [...this.#undeleted, ...this.#entries], unidentified: [...this.#unidentified] };
  }

  /**
   * Deletes everything recorded, newest first; `remove` answers the HTTP status of the DELETE. What was made but
   * not identified is a failure each, listed by label.
   */
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
    for (const entry of this.#unidentified) failed.push(unidentifiedFailure(entry));
    return { deleted, failed };
  }
}
