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
export { type Generated, type Mutation, mutationsOf } from "./generators/case-meta.ts";
export {
  type FilterScenario,
  type FilterValue,
  filterObject,
  filterScenarios,
} from "./generators/filter-object.ts";
export { invalidFilterObject } from "./generators/filter-object-invalid.ts";
export { type PageQueryValues, pageParams } from "./generators/page-params.ts";
export {
  type BodySchema,
  type RequestBodyConstraints,
  requestBody,
  requestBodyValue,
  requestSchemaOf,
} from "./generators/request-body.ts";
export {
  type InvalidRequestBodyConstraints,
  isBreakable,
  requestBodyInvalid,
} from "./generators/request-body-invalid.ts";
export {
  checkFilter,
  compareValues,
  type FilterJudgement,
  judgeFilteredList,
} from "./oracles/filter-oracle.ts";
export { expectPage, judgeWalk, type PageQuery } from "./oracles/pagination-oracle.ts";
export {
  type BodyFixtures,
  bodyFixturePort,
  bodyFixturesOf,
  createBodyFixtures,
} from "./toolkit/bodies/fixtures.ts";
export {
  type ReadBackDifference,
  readBackDifferences,
  readWritten,
  redactWriteOnly,
  writeOnlyValues,
  writtenDifferences,
} from "./toolkit/bodies/read-back.ts";
export {
  jsonWriteOperations,
  type PathValues,
  pathParameters,
  sendBody,
  sendTo,
  type WriteConstraints,
  type WriteTarget,
  writeTargets,
} from "./toolkit/bodies/write-targets.ts";
export {
  createdResource,
  declaredInRead,
  findInList,
  type ReadBackException,
  readBackExceptions,
  registerWritten,
  type WriteAt,
  type Written,
  written,
} from "./toolkit/bodies/written.ts";
export * from "./toolkit/lists.ts";

// Suite toolkit: protocol (tokens, login drivers).
export { retryAfterMs } from "./runner/http-client.ts";
export * from "./toolkit/login.ts";
export * from "./toolkit/tokens.ts";

// Suite toolkit: workflows (listen drivers, certificates).
export { makeStrayKey, makeTlsPair, pemBody, type TlsPair } from "./generators/certificates.ts";
export type { ListenDriver, Listener } from "./runner/listen-drivers/index.ts";
export * from "./toolkit/listen.ts";
export * from "./toolkit/resources.ts";
