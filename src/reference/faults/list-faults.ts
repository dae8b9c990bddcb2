/** Faults of the lists and bodies (X-Filter, pagination, request validation and error bodies) area: one file each, listed here. */
import { defaultPageSizeWrong } from "./default-page-size-wrong.ts";
import { errorFieldMissing } from "./error-field-missing.ts";
import { filterContainsCaseFolded } from "./filter-contains-case-folded.ts";
import { filterGtAsGte } from "./filter-gt-as-gte.ts";
import { filterNeqIgnored } from "./filter-neq-ignored.ts";
import { filterNestedAndFlattened } from "./filter-nested-and-flattened.ts";
import { filterOrAsAnd } from "./filter-or-as-and.ts";
import { filterOrderIgnored } from "./filter-order-ignored.ts";
import { filterUnfilterableAccepted } from "./filter-unfilterable-accepted.ts";
import { firstErrorOnly } from "./first-error-only.ts";
import { hugePage500 } from "./huge-page-500.ts";
import { idAsString } from "./id-as-string.ts";
import { invalidBodyAccepted } from "./invalid-body-accepted.ts";
import { malformedJson500 } from "./malformed-json-500.ts";
import { nodesStatusMissing } from "./nodes-status-missing.ts";
import { pageRepeatsItem } from "./page-repeats-item.ts";
import { pageSizeIgnored } from "./page-size-ignored.ts";
import { pageSizeOutOfRangeAccepted } from "./page-size-out-of-range-accepted.ts";
import { pagesAtDefaultSize } from "./pages-at-default-size.ts";
import { pagesOffByOne } from "./pages-off-by-one.ts";
import type { Fault } from "./types.ts";

/** X-Filter faults: each breaks one rule of the filter semantics; the `filters` suite catches them. */
export const filterFaults: readonly Fault[] = [
  filterOrAsAnd,
  filterOrderIgnored,
  filterGtAsGte,
  filterNeqIgnored,
  filterContainsCaseFolded,
  filterUnfilterableAccepted,
  filterNestedAndFlattened,
];

/** Pagination faults: each breaks one rule of `page`, `page_size` or the envelope; the `pagination` suite catches them. */
export const paginationFaults: readonly Fault[] = [
  pagesOffByOne,
  pagesAtDefaultSize,
  pageRepeatsItem,
  pageSizeIgnored,
  defaultPageSizeWrong,
  hugePage500,
  pageSizeOutOfRangeAccepted,
];

export const listFaults: readonly Fault[] = [
  ...filterFaults,
  ...paginationFaults,
  errorFieldMissing,
  firstErrorOnly,
  invalidBodyAccepted,
  malformedJson500,
  idAsString,
  nodesStatusMissing,
];
