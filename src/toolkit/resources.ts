/**
 * Resources a case creates: the request that creates one, with what it made registered on the run's cleanup
 * ledger (also when the target should have refused it: a faulty target must not keep the run's resources), and
 * secrets a case makes for them (a strong root password).
 * @module
 */
import { randomBytes } from "node:crypto";
import type { LiveResponse } from "../runner/http-client.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import type { OperationInfo } from "../spec/types.ts";
import { type CallOptions, call, type PathValue, pathOf, requireOperation } from "./operations.ts";
import { createdId } from "./responses.ts";

/**
 * Registers what `response` created (a 2xx with an integer `id`) for deletion through `remove`, its path filled
 * with `params` and then the id; answers the id, or undefined when nothing was created.
 */
export function registerCreated(
  t: CaseContext,
  response: LiveResponse,
  what: string,
  remove: OperationInfo,
  ...params: readonly PathValue[]
): number | undefined {
  const id = createdId(response);
  if (id !== undefined) t.cleanup(`${what} ${id}`, pathOf(remove, ...params, id));
  return id;
}

export interface Created {
  readonly response: LiveResponse;
  /** The id of what was created, or undefined when nothing was. */
  readonly id: number | undefined;
}

/** The operationIds of what creates a kind of resource and what deletes one (its path: the same, then the id). */
export type CreateDelete = readonly [create: string, remove: string];

/**
 * Calls the create operation of `operations` and registers what it created for deletion through the delete one,
 * whose path takes the same parameters and then the new id. Both are looked up first: nothing is created that the
 * run could not delete (the case is skipped when the description lacks either).
 */
export async function createRegistered(
  t: CaseContext,
  [createId, deleteId]: CreateDelete,
  what: string,
  options: CallOptions = {},
): Promise<Created> {
  const remove = requireOperation(t, deleteId);
  const response = await call(t, createId, options);
  return { response, id: registerCreated(t, response, what, remove, ...(options.params ?? [])) };
}

/** Asserts under `name` that the request created something (a 2xx with an integer id); answers whether it did. */
export function expectCreated(
  t: CaseContext,
  name: string,
  created: Created,
): created is Created & { readonly id: number } {
  const { response, id } = created;
  return t.expect(name, id !== undefined, {
    expected: "2xx with an integer id",
    actual: response.status,
    response,
  });
}

/** A strong root password (random, 144 bits), registered as a secret so no report ever shows it. */
export function strongPassword(t: CaseContext): string {
  const password = `${randomBytes(18).toString("base64url")}-Cf9`;
  t.secret(password);
  return password;
}
