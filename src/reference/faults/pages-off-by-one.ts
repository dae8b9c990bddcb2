/** `pages` counts one page more than there are. */
import type { Fault } from "./types.ts";

export const pagesOffByOne: Fault = {
  id: "pages-off-by-one",
  description: "`pages` is one more than ceil(results / page_size)",
  detectedBy: {
    suites: ["pagination"],
    checks: ["assert:property: getComputeTypes answers page and page_size edges as described"],
  },
  apply(target) {
    const original = target.behaviour.paginate;
    target.behaviour.paginate = (items, list, behaviour) => {
      const page = original(items, list, behaviour);
      return { ...page, pages: page.pages + 1 };
    };
  },
};
