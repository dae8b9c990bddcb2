import { describe } from "vitest";
import { observedFilterComplete } from "../../src/checks/observed-filter-complete.ts";
import { page, runSequenceCases, seen, typesList } from "../helpers/observed.ts";

const small = { id: "g6-a", memory: 1024 };
const big = { id: "g6-b", memory: 4096 };
const bigger = { id: "g6-c", memory: 8192 };
const gt = { "x-filter": JSON.stringify({ memory: { "+gt": 1024 } }) };
const all = () => typesList("/compute/types", page([small, big, bigger]));
const filtered = (data: object[]) => typesList("/compute/types", page(data), gt);
const write = () =>
  seen({ operationId: "updateProfile", method: "PUT", path: "/profile", json: {}, requestBody: {} });

describe("observed-filter-complete", () => {
  runSequenceCases(observedFilterComplete, [
    {
      name: "a filtered list with every matching item passes",
      sequence: [all(), filtered([big, bigger])],
      outcome: { status: "passed" },
    },
    {
      name: "a filtered list leaving a matching item out fails",
      sequence: [all(), filtered([big])],
      outcome: {
        status: "failed",
        message: "a filtered list leaves out items of the unfiltered list that match the filter",
        expected: { filter: gt["x-filter"], missing: ['"g6-c"'] },
      },
    },
    {
      name: "the unfiltered list seen after the filtered one judges it too",
      sequence: [filtered([big]), all()],
      outcome: { status: "failed" },
    },
    {
      name: "a write between the two: not judged",
      sequence: [all(), write(), filtered([big])],
      outcome: undefined,
    },
    { name: "a filtered list alone: not judged", sequence: [filtered([big])], outcome: undefined },
    {
      name: "an unfiltered list on more than one page is not the whole list: not judged",
      sequence: [
        typesList("/compute/types", page([small, big, bigger], { pages: 2, results: 30 })),
        filtered([big]),
      ],
      outcome: undefined,
    },
    {
      name: "an item that does not match is observed-filter's, not this check's",
      sequence: [all(), filtered([small, big, bigger])],
      outcome: { status: "passed" },
    },
  ]);
});
