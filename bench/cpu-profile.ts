/**
 * Reads a V8 CPU profile (the inspector's `Profiler.stop` answer; a `.cpuprofile` file is the same JSON): the
 * time each function spent in itself, summed over every place it appears in the call tree, largest first. The
 * profiler's own pseudo-functions stay as V8 names them: `(idle)`, `(program)`, `(garbage collector)`.
 * @module
 */

export interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    /** 0-based. */
    readonly lineNumber: number;
  };
}

export interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  /** Start and end, in µs. */
  readonly startTime: number;
  readonly endTime: number;
  /** The node on top of the stack at each sample. */
  readonly samples?: readonly number[];
  /** µs since the previous sample (the first: since `startTime`). */
  readonly timeDeltas?: readonly number[];
}

export interface FunctionTime {
  /** The function's name, or `(anonymous)`. */
  readonly name: string;
  /** `path:line` (1-based), relative to `root` when under it; empty for V8's pseudo-functions and natives. */
  readonly location: string;
  readonly selfUs: number;
}

export interface SelfTimes {
  /** The time the samples cover, in µs. */
  readonly totalUs: number;
  readonly functions: readonly FunctionTime[];
}

/**
 * Self time per function. A sample stands for the time until the next one (the last: until `endTime`), as
 * DevTools counts it. `root` is a directory URL (`file:///.../`) cut from the front of locations.
 */
export function selfTimes(profile: CpuProfile, root: string): SelfTimes {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, FunctionTime>();
  let at = profile.startTime;
  const stamps = deltas.map((delta) => {
    at += delta;
    return at;
  });
  let totalUs = 0;
  samples.forEach((id, index) => {
    const until = stamps[index + 1] ?? profile.endTime;
    const spent = Math.max(0, until - (stamps[index] ?? profile.startTime));
    const node = byNode.get(id);
    if (!node) return;
    totalUs += spent;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || "(anonymous)";
    const location = url ? `${url.startsWith(root) ? url.slice(root.length) : url}:${lineNumber + 1}` : "";
    const key = `${name}\u0000${location}`;
    const known = totals.get(key);
    totals.set(key, { name, location, selfUs: (known?.selfUs ?? 0) + spent });
  });
  const functions = [...totals.values()].sort((a, b) => b.selfUs - a.selfUs);
  return { totalUs, functions };
}
