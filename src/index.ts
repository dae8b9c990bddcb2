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

export { type Generated, mutationsOf } from "./generators/case-meta.ts";
export {
  type FilterScenario,
  type FilterValue,
  filterObject,
  filterScenarios,
} from "./generators/filter-object.ts";
export { invalidFilterObject } from "./generators/filter-object-invalid.ts";
export { type PageQueryValues, pageParams } from "./generators/page-params.ts";
export {
  checkFilter,
  compareValues,
  type FilterJudgement,
  judgeFilteredList,
} from "./oracles/filter-oracle.ts";
export { expectPage, judgeWalk, type PageQuery } from "./oracles/pagination-oracle.ts";
export * from "./toolkit/lists.ts";

// Suite toolkit: request bodies (write targets, read-back), generators they use.

// Suite toolkit: protocol (tokens, login drivers).

// Suite toolkit: workflows (listen drivers, certificates).
