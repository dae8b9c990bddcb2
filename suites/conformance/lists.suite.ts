/**
 * Every paginated list of the description that needs no path parameter answers the list envelope with the run's
 * token, and refuses a page size just outside the described bounds (25..500 in the bundled description) naming
 * `page_size`. Read-only; derived from the description, so it grows with it.
 * @module
 */
import { conventionsOf, defineSuite, errorFields, pathOf, topLevelLists } from "../../src/index.ts";

export default defineSuite({
  id: "lists",
  title: "Every top-level paginated list answers the list envelope",
  tags: ["read-only"],
  cases: [
    {
      id: "envelope",
      title: "Each list answers 200 with data, page, pages and results",
      run: async (t) => {
        const lists = topLevelLists(t);
        if (lists.length === 0) t.skip("the description has no top-level paginated list");
        const { min } = conventionsOf(t.spec).pageSize;
        for (const operation of lists) {
          const response = await t.api.get(pathOf(operation), { query: { page_size: min } });
          const body = response.json as { data?: unknown; page?: unknown } | undefined;
          t.expect(`${operation.operationId} answers 200`, response.status === 200, {
            expected: 200,
            actual: response.status,
          });
          t.expect(`${operation.operationId} answers page 1`, body?.page === 1, {
            expected: 1,
            actual: body?.page,
          });
        }
      },
    },
    {
      id: "page-size-bounds",
      title:
        "Each list refuses a page_size just below and just above the bounds with an error naming page_size",
      run: async (t) => {
        const { min, max } = conventionsOf(t.spec).pageSize;
        for (const operation of topLevelLists(t)) {
          for (const size of [min - 1, max + 1]) {
            const response = await t.api.get(pathOf(operation), {
              query: { page_size: size },
              breaks: `query.page_size: ${size} is ${size < min ? "below its minimum" : "above its maximum"}`,
            });
            const name = `${operation.operationId} page_size=${size}`;
            t.expect(`${name} answers 400`, response.status === 400, {
              expected: 400,
              actual: response.status,
            });
            t.expect(`${name} names page_size`, errorFields(t, response).includes("page_size"), {
              expected: "an error with field page_size",
              actual: response.json,
            });
          }
        }
      },
    },
  ],
});
