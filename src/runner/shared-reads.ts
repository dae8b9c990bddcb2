/**
 * A run's memo of idempotent reads that several cases (of any suite) may share: the first case to ask sends the
 * read, and its exchange is judged there, once; a later case gets the same answer object without a request,
 * and learns which case read it. A read that fails (throws) is not kept: the next case asks afresh.
 * Only for reads whose verdict does not depend on repeating them (a catalogue read to choose fixtures from);
 * never for waits or polling, reads after a write, rate-limit or pagination walks, auth or scope checks, or
 * anything judging the request itself.
 * @module
 */

export interface SharedRead<T> {
  readonly value: T;
  /** `<suite>/<case>` that sent the read. */
  readonly readBy: string;
  /** False for the case that sent it. */
  readonly reused: boolean;
}

export class SharedReads {
  readonly #reads = new Map<string, { readonly value: Promise<unknown>; readonly readBy: string }>();
  /** Reads answered from the memo (no request sent), for tests and the bench. */
  reusedCount = 0;

  async read<T>(key: string, readBy: string, read: () => Promise<T>): Promise<SharedRead<T>> {
    const known = this.#reads.get(key);
    if (known) {
      const value = (await known.value) as T;
      this.reusedCount += 1;
      return { value, readBy: known.readBy, reused: true };
    }
    const value = read();
    const entry = { value, readBy };
    this.#reads.set(key, entry);
    try {
      return { value: await value, readBy, reused: false };
    } catch (error) {
      if (this.#reads.get(key) === entry) this.#reads.delete(key);
      throw error;
    }
  }
}
