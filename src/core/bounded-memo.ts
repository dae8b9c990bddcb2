/**
 * Answers of a pure computation, remembered by key, at most `maxEntries` of them: when full, the memory is
 * emptied (cheap, and keys that come from a target cannot grow it without bound). The runner's hot path asks the
 * same questions of every answer (which operation, which validator, what a Content-Type means, whether a string
 * is a date-time); this is where their answers are kept.
 * @module
 */
export class BoundedMemo<K, V> {
  readonly #answers = new Map<K, V>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  /**
   * The answer for `key`: remembered, or computed now and remembered (undefined answers too). `compute` gets the
   * key, so a hot caller can pass one function made once rather than a new closure per call.
   */
  get(key: K, compute: (key: K) => V): V {
    const known = this.#answers.get(key);
    // One lookup in the common case; `has` only tells a remembered undefined from a miss.
    if (known !== undefined || this.#answers.has(key)) return known as V;
    const answer = compute(key);
    if (this.#answers.size >= this.#maxEntries) this.#answers.clear();
    this.#answers.set(key, answer);
    return answer;
  }

  get size(): number {
    return this.#answers.size;
  }
}
