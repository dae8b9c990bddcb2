/**
 * The cleanup ledger: every resource a run creates is written here when created (by its resource kind in the
 * description and its ids, with the path of the description's delete for it) and deleted at the end of the run,
 * newest first and children before parents (never an entry while one whose path lies under its path is left),
 * on failure and on Ctrl-C too. A resource already gone (404)
 * counts as deleted. A resource the target made but whose answer did not say which (no id, no `Location`) cannot be
 * deleted by path: it is kept apart, by the label the run gave it, and listed at the end as a cleanup failure
 * (`conform cleanup` finds it by that label).
 * @module
 */

export interface LedgerEntry {
  readonly description: string;
  /** Path relative to the API base URL, e.g. `/nodebalancers/1001`. */
  readonly deletePath: string;
  /** The kind of resource (its collection's path in the description) and its ids by path parameter, when known. */
  readonly made?: MadeResource;
}

/** What a create made, as the description names it. */
export interface MadeResource {
  /** The collection's path template (`/nodebalancers/{nodeBalancerId}/configs`): the resource's key. */
  readonly resource: string;
  /** Its path parameters' values, its own id last (`{nodeBalancerId: 7, configId: 12}`). */
  readonly ids: Readonly<Record<string, string | number>>;
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
  /** What was made of a resource kind, oldest first (the lifecycle chain reads its own). */
  made(resource: string): readonly MadeResource[] {
    return this.#entries.flatMap((entry) => (entry.made?.resource === resource ? [entry.made] : []));
  }

  left(): LeftOnLedger {
    return { entries: [...this.#undeleted, ...this.#entries], unidentified: [...this.#unidentified] };
  }

  /**
   * Deletes everything recorded, newest first but children before parents; `remove` answers the HTTP status of
   * the DELETE. What was made but not identified is a failure each, listed by label.
   */
  async drain(remove: (deletePath: string) => Promise<number>): Promise<CleanupOutcome> {
    let deleted = 0;
    const failed: string[] = [];
    while (this.#entries.length > 0) {
      // Removed only once its DELETE is over: until then it is what `left()` names.
      const at = this.#nextToDelete();
      const entry = this.#entries[at]!;
      let problem: string | undefined;
      try {
        const status = await remove(entry.deletePath);
        if (status < 300 || status === 404) deleted += 1;
        else problem = `${entry.description} (DELETE ${entry.deletePath} answered ${status})`;
      } catch (error) {
        problem = `${entry.description} (DELETE ${entry.deletePath} failed: ${(error as Error)?.message ?? error})`;
      }
      this.#entries.splice(at, 1);
      if (problem !== undefined) {
        failed.push(problem);
        this.#undeleted.push(entry);
      }
    }
    for (const entry of this.#unidentified) failed.push(unidentifiedFailure(entry));
    return { deleted, failed };
  }

  /**
   * The newest entry with nothing left under its path: a child made after a sibling's parent, or registered
   * after its parent by a later case, still goes first.
   */
  #nextToDelete(): number {
    const paths = this.#entries.map((entry) => `${entry.deletePath.replace(/\/+$/, "")}/`);
    for (let at = this.#entries.length - 1; at > 0; at -= 1) {
      const under = paths.some(
        (path, other) => other !== at && path.startsWith(paths[at]!) && path !== paths[at],
      );
      if (!under) return at;
    }
    return 0;
  }
}
