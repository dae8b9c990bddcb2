/**
 * The toolkit's public API for suite authors and library users: what a `*.suite.ts` file may import.
 * @module
 */
export type { Reproduction, RunEvent, SuiteTag } from "./core/events.ts";
export type { Exchange } from "./core/exchange.ts";
export type { LiveResponse } from "./runner/http-client.ts";
export {
  type ApiClient,
  type CaseContext,
  defineSuite,
  type RequestOptions,
  type Suite,
  type SuiteCase,
  type TargetInfo,
} from "./runner/suite-api.ts";
