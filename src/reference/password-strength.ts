/**
 * Root password strength, scored the way the real service does it: zxcvbn (here the maintained TypeScript port,
 * with its language-independent dictionaries and keyboard graphs). A password passes at score 3 or more
 * (0..4), the threshold behind the service's `Password does not meet strength requirement`.
 *
 * The account's own words count against a password through zxcvbn's user inputs: the instance label, group
 * and tags, the username and the email address (`web-server-01` scores 4 alone but 0 as the label's own
 * password). The scorer is built on first use (about 50 ms) and shared: it holds no per-request state.
 * @module
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/** The lowest passing zxcvbn score. */
export const minimumPasswordScore = 3;

let scorer: ZxcvbnFactory | undefined;

function zxcvbn(): ZxcvbnFactory {
  scorer ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return scorer;
}

/** zxcvbn's score (0..4) of a password, given the words of its owner that an attacker would try first. */
export function passwordScore(password: string, userInputs: readonly string[] = []): number {
  const inputs = userInputs.filter((input) => input.length > 0);
  return zxcvbn().check(password, inputs).score;
}

export function isStrongPassword(password: string, userInputs: readonly string[] = []): boolean {
  return passwordScore(password, userInputs) >= minimumPasswordScore;
}
