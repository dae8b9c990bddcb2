/** Types of bin/node-guard.js (plain JavaScript, so that any Node parses it). */
export declare const minimumNode: readonly [number, number];
export declare function nodeVersionProblem(version: string): string | undefined;
export declare function callerFolder(env: Readonly<Record<string, string | undefined>>): string | undefined;
