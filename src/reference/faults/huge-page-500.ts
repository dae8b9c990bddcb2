/** A page above 2^64 / page_size answers 500 instead of the last page. */
import { reasons } from "../errors.ts";
import type { Fault } from "./types.ts";

const limit = 2n ** 64n;

export const hugePage500: Fault = {
  id: "huge-page-500",
  description: "a page above 2^64 / page_size answers 500 instead of the last page",
  detectedBy: {
    suites: ["pagination"],
    checks: [
      "not-a-server-error",
      "assert:property: getComputeTypes answers page and page_size edges as described",
    ],
  },
  apply(target) {
    target.rewriteReplies((outgoing, operation, request) => {
      if (!operation?.paginated || outgoing.status !== 200) return outgoing;
      const query = new URL(request.url ?? "/", "https://reference.invalid").searchParams;
      const page = query.get("page") ?? "1";
      const size = query.get("page_size") ?? "100";
      if (!/^\d+$/.test(page) || !/^\d+$/.test(size) || BigInt(page) * BigInt(size) <= limit) return outgoing;
      return { ...outgoing, status: 500, body: { errors: [{ reason: reasons.internal }] }, raw: undefined };
    });
  },
};
