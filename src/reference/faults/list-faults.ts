/** Faults of the lists and bodies (X-Filter, pagination, request validation and error bodies) area: one file each, listed here. */
import { errorFieldMissing } from "./error-field-missing.ts";
import { firstErrorOnly } from "./first-error-only.ts";
import { idAsString } from "./id-as-string.ts";
import { invalidBodyAccepted } from "./invalid-body-accepted.ts";
import { malformedJson500 } from "./malformed-json-500.ts";
import { nodesStatusMissing } from "./nodes-status-missing.ts";
import type { Fault } from "./types.ts";

export const listFaults: readonly Fault[] = [
  errorFieldMissing,
  firstErrorOnly,
  invalidBodyAccepted,
  malformedJson500,
  idAsString,
  nodesStatusMissing,
];
