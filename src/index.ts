/**
 * The toolkit's public API for suite authors and library users: what a `*.suite.ts` file may import. The
 * project's own suites import nothing else (test/architecture.test.ts).
 * @module
 */
export type { Reproduction, RunEvent, SuiteTag } from "./core/events.ts";
export type { Exchange } from "./core/exchange.ts";
export type { LiveResponse } from "./runner/http-client.ts";
export {
  type ApiClient,
  type CaseContext,
  defineSuite,
  type FuzzCampaign,
  type LoginDriver,
  type LoginRequest,
  type RequestOptions,
  type Suite,
  type SuiteCase,
  type SuiteHooks,
  type TargetInfo,
} from "./runner/suite-api.ts";
export { type ApiConventions, apiFacts, conventionsOf, type PageSizeBounds } from "./spec/conventions.ts";
export type { FilterableField, OperationInfo } from "./spec/types.ts";

// Suite toolkit: operations by operationId, answers, properties, fixtures, waits.
export * from "./toolkit/fixtures.ts";
export * from "./toolkit/operations.ts";
export * from "./toolkit/property.ts";
export * from "./toolkit/responses.ts";
export * from "./toolkit/waits.ts";

// Suite toolkit: lists and pagination (walker, stable snapshots), generators and oracles they use.

// Suite toolkit: request bodies (write targets, read-back), generators they use.

// Suite toolkit: protocol (tokens, login drivers).
export { retryAfterMs } from "./runner/http-client.ts";
export * from "./toolkit/login.ts";
export * from "./toolkit/tokens.ts";

// Suite toolkit: workflows (listen drivers, certificates).
