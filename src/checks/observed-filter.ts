/**
 * `observed-filter`: a list answered 200 to a valid X-Filter holds only items that match it, in its `+order_by`
 * order (the filter oracle); a filter the description refuses is not answered 2xx. Judges any list read that sent
 * the filter header, whoever made it (a run's, a proxy's client, a recording).
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { checkFilterHeader, compareByOrder, matchesFilter } from "../oracles/filter-oracle.ts";
import { filterTextOf, isListRead, isObject, keyOf, observedOperation } from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

export const observedFilter: CheckDefinition = {
  id: "observed-filter",
  title: "A filtered list holds only matching items, in order; a refused filter is not answered 2xx",
  check(context, exchange) {
    const operation = observedOperation(context, exchange);
    if (!operation || !isListRead(operation, exchange)) return undefined;
    const text = filterTextOf(context, exchange);
    if (text === undefined) return undefined;
    const { response } = exchange;
    const verdict = checkFilterHeader(text, operation.filterableFields);
    if (verdict.status === "unspecified")
      return skipped(
        `the description does not decide this filter (${verdict.points[0]?.message ?? "open point"})`,
      );
    if (verdict.status === "invalid") {
      if (response.status >= 200 && response.status < 300)
        return failed(
          `a filter the description refuses (${verdict.problems[0]?.message}) was answered ${response.status}`,
          { expected: 400, actual: response.status },
        );
      return response.status === 400 ? passed : undefined;
    }
    if (response.status !== 200) return undefined;
    if (response.truncated) return skipped("the body was cut: the items cannot all be judged");
    const data = isObject(response.json) ? response.json.data : undefined;
    if (!Array.isArray(data)) return undefined; // observed-pages says the envelope is wrong
    const notObject = data.findIndex((item) => !isObject(item));
    if (notObject >= 0)
      return failed(`item ${notObject} of a filtered list is not an object`, { actual: data[notObject] });
    const items = data as Record<string, unknown>[];
    const { filter } = verdict;
    const unsound = items.findIndex((item) => !matchesFilter(item, filter));
    if (unsound >= 0)
      // The item and the filter are in expected/actual, not the message: one defect is one group over every filter.
      return failed("an item of a filtered list does not match the filter", {
        expected: `every item matches ${text}`,
        actual: { item: keyOf(items[unsound]), value: items[unsound] },
      });
    if (!filter.order) return passed;
    const { order } = filter;
    const at = items.findIndex(
      (item, index) => index > 0 && compareByOrder(items[index - 1]!, item, order) > 0,
    );
    if (at <= 0) return passed;
    return failed(`items are not in ${order.field} ${order.direction} order at index ${at}`, {
      expected: `${order.field} ${order.direction}`,
      actual: [items[at - 1]?.[order.field], items[at]?.[order.field]],
    });
  },
};
