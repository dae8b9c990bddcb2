/**
 * The toolkit's public API for suite authors and library users: what a `*.suite.ts` file may import. The
 * project's own suites import nothing else (test/architecture.test.ts).
 * @module
 */

export { type AnswerInstants, answerInstants, answerSkewMs, describeEarliest } from "./core/answer-time.ts";
export type { Reproduction, RunEvent, SuiteTag } from "./core/events.ts";
export type { Exchange } from "./core/exchange.ts";
export type { LiveResponse } from "./runner/contracts.ts";
export {
  type ApiClient,
  type CaseContext,
  defineSuite,
  type FuzzCampaign,
  type LoginDriver,
  type LoginRequest,
  neededReason,
  type PropertyReplay,
  type RequestOptions,
  type SharedKey,
  type SharedName,
  type SharedValues,
  type Suite,
  type SuiteCase,
  type SuiteHooks,
  sharedKey,
  type TargetInfo,
} from "./runner/suite-api.ts";

// The description's operations and the API's conventions read from it.

export { type ApiConventions, apiFacts, conventionsOf, type PageSizeBounds } from "./spec/conventions.ts";
export { type EventKind, eventActions } from "./spec/event-actions.ts";
export { headerNotDocumented } from "./spec/operations.ts";
export { isWrittenInUtc, utcInstant } from "./spec/times.ts";
export type { FilterableField, OperationInfo } from "./spec/types.ts";

// The suite toolkit (src/toolkit/): operations by operationId, answers, properties, fixtures, waits, resources.

export * from "./toolkit/fixtures.ts";
export * from "./toolkit/operations.ts";
export * from "./toolkit/property.ts";
export * from "./toolkit/readers.ts";
export * from "./toolkit/resources.ts";
export * from "./toolkit/responses.ts";
export * from "./toolkit/root-cause.ts";
export * from "./toolkit/waits.ts";

// Lists and pagination: the list walker and stable snapshots, and the generators and oracles they judge with.

export { breaksOf, type Generated, type Mutation, mutationsOf } from "./generators/case-meta.ts";
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
  filterFieldValue,
  judgeFilteredList,
  judgeFilteredPages,
} from "./oracles/filter-oracle.ts";
export { expectPage, judgeWalk, type PageQuery } from "./oracles/pagination-oracle.ts";
export * from "./toolkit/filter-answers.ts";
export * from "./toolkit/filter-relations.ts";
export * from "./toolkit/lists.ts";
export * from "./toolkit/snapshots.ts";

// Request bodies: write targets, where a write lives, read-back, fixtures, and the body generators.

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
  type BodyFixtures,
  bodyFixturePort,
  bodyFixturesOf,
  createBodyFixtures,
  madeFixture,
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
  withListedValues,
  writeTargets,
} from "./toolkit/bodies/write-targets.ts";
export {
  createdResource,
  declaredInRead,
  findInList,
  registerWritten,
  type WriteAt,
  type Written,
  written,
} from "./toolkit/bodies/written.ts";

// The generic layer: valid and invalid requests for any operation, from the description alone.

export type { BrokenRule, RequestIntent } from "./core/exchange.ts";
export {
  type OperationRequest,
  type OperationRequestConstraints,
  operationRequest,
  unbuildableRequest,
} from "./generators/operation-request.ts";
export {
  breakableIn,
  brokenRulesOf,
  type InvalidOperationRequestConstraints,
  operationRequestInvalid,
  type RequestPart,
} from "./generators/operation-request-invalid.ts";
export { ancestorsOf, type Resource, resourceAt, resourcesOf } from "./spec/resources.ts";
export * from "./toolkit/lifecycle.ts";
export { runLifecycle } from "./toolkit/lifecycle-steps.ts";
export * from "./toolkit/operation-requests.ts";
export * from "./toolkit/path-values.ts";

// Protocol: tokens minted and revoked, the login at the OAuth server, Retry-After.

export { retryAfterMs } from "./runner/transport/failures.ts";
export * from "./toolkit/login.ts";
export * from "./toolkit/tokens.ts";

// Workflows: listen drivers (node health) and certificates made for the run.

export { makeStrayKey, makeTlsPair, pemBody, type TlsPair } from "./generators/certificates.ts";
export { type EventuallyOptions, type EventuallyOutcome, eventually } from "./runner/eventually.ts";
export type { ListenDriver, Listener } from "./runner/listen-drivers/index.ts";
export * from "./toolkit/data-plane.ts";
export * from "./toolkit/listen.ts";
