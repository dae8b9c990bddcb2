/**
 * The cases running and how long each has gone without an answer (no exchange since it started or since its
 * latest one), so the console can show a case waiting on a slow target instead of minutes of silence: the
 * longest wait on the progress line, or one line per case per `noticeEveryMs` where there is no progress line.
 * @module
 */

interface Running {
  readonly label: string;
  /** When the case last heard from the target (or started). */
  since: number;
  /** When its latest "still waiting" line was printed. */
  noticedAt: number;
}

export interface Waiting {
  readonly label: string;
  readonly quietMs: number;
}

export class WaitingCases {
  /** By suite, then case: an exchange (every answer of a run) finds its case without building a key. */
  readonly #bySuite = new Map<string, Map<string, Running>>();

  started(suiteId: string, caseId: string, title: string, now: number): void {
    let cases = this.#bySuite.get(suiteId);
    if (!cases) {
      cases = new Map();
      this.#bySuite.set(suiteId, cases);
    }
    cases.set(caseId, { label: `${suiteId} › ${title}`, since: now, noticedAt: now });
  }

  /** An exchange of the case was recorded: it has its answer (or its failure). */
  heard(suiteId: string, caseId: string, now: number): void {
    const running = this.#bySuite.get(suiteId)?.get(caseId);
    if (running) running.since = now;
  }

  finished(suiteId: string, caseId: string): void {
    const cases = this.#bySuite.get(suiteId);
    cases?.delete(caseId);
    if (cases?.size === 0) this.#bySuite.delete(suiteId);
  }

  clear(): void {
    this.#bySuite.clear();
  }

  *#running(): Iterable<Running> {
    for (const cases of this.#bySuite.values()) yield* cases.values();
  }

  /** The case quiet the longest, when one has been for at least `atLeastMs`. */
  longest(now: number, atLeastMs: number): Waiting | undefined {
    let found: Running | undefined;
    for (const running of this.#running()) if (!found || running.since < found.since) found = running;
    if (!found || now - found.since < atLeastMs) return undefined;
    return { label: found.label, quietMs: now - found.since };
  }

  /** The cases quiet for `everyMs` or more and not told of for as long: each is told of once per `everyMs`. */
  due(now: number, everyMs: number): Waiting[] {
    const due: Waiting[] = [];
    for (const running of this.#running()) {
      if (now - running.since < everyMs || now - running.noticedAt < everyMs) continue;
      running.noticedAt = now;
      due.push({ label: running.label, quietMs: now - running.since });
    }
    return due;
  }
}
