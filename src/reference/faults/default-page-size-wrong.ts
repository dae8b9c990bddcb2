/** Without `page_size`, pages hold 25 items instead of the described default 100. */
import type { Fault } from "./types.ts";

export const defaultPageSizeWrong: Fault = {
  id: "default-page-size-wrong",
  description: "the default page size is 25, not 100",
  detectedBy: { suites: ["pagination"], checks: ["assert:getComputeTypes: the default page size is 100"] },
  apply(target) {
    const original = target.behaviour.parseListQuery;
    target.behaviour.parseListQuery = (operation, query, header) => {
      const parsed = original(operation, query, header);
      if (!parsed.ok || query.has("page_size")) return parsed;
      return { ok: true, list: { ...parsed.list, pageSize: 25 } };
    };
  },
};
