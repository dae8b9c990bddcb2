import { describe, expect, it } from "vitest";
import { observedPages } from "../../src/checks/observed-pages.ts";
import { lastVerdict, page, runSequenceCases, seen, typesList } from "../helpers/observed.ts";

const page1 = Array.from({ length: 25 }, (_, index) => ({ id: `g6-${index}`, memory: index }));
const small = { id: "g6-a", memory: 1024 };
const big = { id: "g6-b", memory: 4096 };
const first = () => typesList("/compute/types?page_size=25", page(page1, { results: 26, pages: 2 }));
const second = (data: object[], results = 26) =>
  typesList("/compute/types?page=2&page_size=25", page(data, { page: 2, results, pages: 2 }));
const write = () =>
  seen({ operationId: "updateProfile", method: "PUT", path: "/profile", json: {}, requestBody: {} });

describe("observed-pages", () => {
  runSequenceCases(observedPages, [
    {
      name: "one sound page passes",
      sequence: [typesList("/compute/types", page([small]))],
      outcome: { status: "passed" },
    },
    {
      name: "pages off by one fail",
      sequence: [typesList("/compute/types", page([small], { pages: 2 }))],
      outcome: { status: "failed" },
    },
    {
      name: "page_size out of bounds answered 200 fails",
      sequence: [typesList("/compute/types?page_size=5", page([small]))],
      outcome: { status: "failed", message: "page_size out of the description's bounds was answered 200" },
    },
    {
      name: "page_size out of bounds refused is not its business (the error field judges the 400)",
      sequence: [
        typesList("/compute/types?page_size=5", { errors: [{ reason: "x", field: "page_size" }] }, {}, 400),
      ],
      outcome: undefined,
    },
    {
      name: "an item on two pages of one walk fails",
      sequence: [first(), second([page1[3]!])],
      outcome: { status: "failed", message: 'item "g6-3" is on two pages of one walk (page 2)' },
    },
    {
      name: "an item on two pages with a write between them is a new walk: passes",
      sequence: [first(), write(), second([page1[3]!])],
      outcome: { status: "passed" },
    },
    {
      name: "a page 2 seen without its page 1 starts a walk and passes",
      sequence: [second([page1[3]!])],
      outcome: { status: "passed" },
    },
    {
      name: "the last item of a page again at the start of the next while results grew by one is skipped",
      sequence: [first(), second([page1[24]!, big], 27)],
      outcome: { status: "skipped" },
    },
    {
      name: "an item again further on than results grew fails",
      sequence: [first(), second([page1[3]!, big], 27)],
      outcome: { status: "failed" },
    },
    {
      name: "a list answer that is not JSON fails",
      sequence: [
        {
          ...typesList("/compute/types", page([small])),
          response: {
            ...typesList("/compute/types", page([small])).response,
            json: undefined,
            text: "<html>",
          },
        },
      ],
      outcome: { status: "failed", message: "a list answer is not a JSON object" },
    },
    { name: "two pages of one walk pass", sequence: [first(), second([big])], outcome: { status: "passed" } },
    {
      name: "a read of one item is not its business",
      sequence: [seen({ operationId: "getProfile", path: "/profile", json: {} })],
      outcome: undefined,
    },
  ]);

  it("says why an item pushed on by a growing list is not judged as a repeat", () => {
    expect(lastVerdict(observedPages, [first(), second([page1[24]!, big], 27)])).toEqual({
      status: "skipped",
      reason:
        'item(s) "g6-24" showed again on page 2 of one walk while the list grew (results 27): the list changed under the walk, not judged as a repeat',
    });
  });
});
