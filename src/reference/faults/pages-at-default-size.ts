/**
 * `pages` is counted at the default page size whatever `page_size` asked (the count ignores it): on a list longer
 * than one page at the size asked, `pages` disagrees with ceil(results / page_size), so a client walking by
 * `pages` stops early or reads past the end.
 */
import { pageSizeBounds } from "../list-query.ts";
import type { Fault } from "./types.ts";

export const pagesAtDefaultSize: Fault = {
  id: "pages-at-default-size",
  description: "`pages` is ceil(results / the default page size), whatever page_size was asked",
  detectedBy: {
    suites: ["pagination"],
    checks: ["assert:property: getComputeTypes answers page and page_size edges as described"],
  },
  apply(target) {
    const original = target.behaviour.paginate;
    target.behaviour.paginate = (items, list, behaviour) => {
      const page = original(items, list, behaviour);
      return { ...page, pages: Math.max(1, Math.ceil(page.results / pageSizeBounds.default)) };
    };
  },
};
