/**
 * Every paginated list of the spec that needs no path parameter answers the list envelope with the run's token,
 * and refuses a page size outside 25..500 naming `page_size`. Read-only; derived from the spec, so it grows
 * with it.
 */
import { type CaseContext, defineSuite } from "../../src/index.ts";

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
        if (lists.length === 0) t.skip("the spec has no top-level paginated list");
        for (const operation of lists) {
          const response = await t.api.get(operation.pathTemplate, { query: { page_size: 25 } });
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
      title: "Each list refuses page_size 24 and 501 with an error naming page_size",
      run: async (t) => {
        const lists = topLevelLists(t);
        for (const operation of lists) {
          for (const size of [24, 501]) {
            const response = await t.api.get(operation.pathTemplate, { query: { page_size: size } });
            const errors = (response.json as { errors?: { field?: string }[] } | undefined)?.errors ?? [];
            t.expect(`${operation.operationId} page_size=${size} answers 400`, response.status === 400, {
              expected: 400,
              actual: response.status,
            });
            t.expect(
              `${operation.operationId} page_size=${size} names page_size`,
              errors.some((error) => error.field === "page_size"),
              { expected: "an error with field page_size", actual: errors },
            );
          }
        }
      },
    },
  ],
});

/** The description's paginated GET lists whose path has no parameter (top-level collections). */
function topLevelLists(t: CaseContext) {
  return t.spec.operations
    .all()
    .filter(
      (operation) =>
        operation.paginated && operation.method === "get" && !operation.pathTemplate.includes("{"),
    );
}
