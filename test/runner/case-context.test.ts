import { describe, expect, it } from "vitest";
import {
  buildUrl,
  type CaseContextDeps,
  type CaseRecorder,
  CaseSkipped,
  createCaseContext,
} from "../../src/runner/case-context.ts";
import type { HttpClient } from "../../src/runner/http-client.ts";
import { SharedReads } from "../../src/runner/shared-reads.ts";
import { type CaseContext, neededReason, type SharedName, sharedKey } from "../../src/runner/suite-api.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { specWith } from "../helpers/fake-case.ts";

/** A recorder that hears nothing but the case's log lines. */
function silentRecorder(): CaseRecorder {
  return {
    onExchange: () => {},
    assert: () => {},
    lastExchange: undefined,
    reproduction: undefined,
    logs: [],
  };
}

/** What the URL standard makes of the same request, built the long way: parse, set each parameter, serialise. */
function longWay(base: string, path: string, query: Record<string, string | number> = {}): string {
  const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(`${base.replace(/\/$/, "")}${path}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
  return url.toString();
}

describe("buildUrl", () => {
  it.each<[string, string, Record<string, string | number> | undefined, string]>([
    ["https://127.0.0.1:8443/v4", "/regions", undefined, "https://127.0.0.1:8443/v4/regions"],
    ["https://127.0.0.1:8443/v4/", "/regions", {}, "https://127.0.0.1:8443/v4/regions"],
    [
      "http://127.0.0.1/v4",
      "/nodebalancers",
      { page: 2, page_size: 25 },
      "http://127.0.0.1/v4/nodebalancers?page=2&page_size=25",
    ],
    [
      "http://127.0.0.1/v4",
      "/x",
      { q: "a b&c=d", é: "ü" },
      "http://127.0.0.1/v4/x?q=a+b%26c%3Dd&%C3%A9=%C3%BC",
    ],
    ["http://127.0.0.1/v4", "/x?page=1&keep=yes", { page: 3 }, "http://127.0.0.1/v4/x?page=3&keep=yes"],
    ["http://127.0.0.1/v4", "/x#frag", { page: 3 }, "http://127.0.0.1/v4/x?page=3#frag"],
    ["http://127.0.0.1/v4", "http://127.0.0.2/oauth/token", { a: 1 }, "http://127.0.0.2/oauth/token?a=1"],
    ["http://127.0.0.1/v4", "/a b/../c", undefined, "http://127.0.0.1/v4/c"],
    ["http://127.0.0.1/v4", "/x", { empty: "" }, "http://127.0.0.1/v4/x?empty="],
    // Written as they are (no encoder): letters, digits and _ . * - ...
    ["http://127.0.0.1/v4", "/x", { "a_b.c*d-e": "Z9_.*-" }, "http://127.0.0.1/v4/x?a_b.c*d-e=Z9_.*-"],
    // ...anything else, in a name or a value, after a plain one, is encoded as the form encoder does.
    ["http://127.0.0.1/v4", "/x", { plain: 1, tilde: "a~b" }, "http://127.0.0.1/v4/x?plain=1&tilde=a%7Eb"],
    ["http://127.0.0.1/v4", "/x", { plain: 1, "a/b": "c:d" }, "http://127.0.0.1/v4/x?plain=1&a%2Fb=c%3Ad"],
    ["http://127.0.0.1/v4", "/x", { "": "", p: "%41" }, "http://127.0.0.1/v4/x?=&p=%2541"],
  ])("%s + %s + %j", (base, path, query, expected) => {
    expect(buildUrl(base, path, query)).toBe(expected);
    expect(buildUrl(base, path, query)).toBe(longWay(base, path, query));
  });

  it("throws for a base that is no URL, every time (a failed build is not remembered)", () => {
    expect(() => buildUrl("127.0.0.1/v4", "/regions", undefined)).toThrow(TypeError);
    expect(() => buildUrl("127.0.0.1/v4", "/regions", undefined)).toThrow(TypeError);
  });
});

describe("the clients' filter option", () => {
  /** The headers of one request sent with `filter` under `spec`. */
  async function headersSent(spec: ApiSpec, filter: unknown): Promise<Readonly<Record<string, string>>> {
    let headers: Readonly<Record<string, string>> = {};
    const client = {
      send: async (request: { headers: Readonly<Record<string, string>> }) => {
        headers = request.headers;
        return {};
      },
    } as unknown as HttpClient;
    const deps = {
      client,
      spec,
      target: { baseUrl: "https://127.0.0.1:1/v4", authUrl: "https://127.0.0.1:1" },
      token: undefined,
      signal: new AbortController().signal,
    } as unknown as CaseContextDeps;
    await createCaseContext(deps, silentRecorder()).api.get("/things", { filter });
    return headers;
  }

  it("sends the filter in the description's filter header: X-Filter, or the header another edition names", async () => {
    expect(await headersSent(await specWith(), { label: "a" })).toMatchObject({
      "x-filter": '{"label":"a"}',
    });
    const renamed = await specWith(["X-Filter", "X-Item-Filter"]);
    const sent = await headersSent(renamed, "{raw");
    expect(sent).toMatchObject({ "x-item-filter": "{raw" });
    expect(sent).not.toHaveProperty("x-filter");
  });
});

describe("t.reuse", () => {
  it("the first case reads; a later one (another suite) gets the same answer, logged, without reading", async () => {
    const reads = new SharedReads();
    const secrets = { scrub: (text: string) => text };
    const spec = await specWith();
    const contextOf = (suiteId: string, caseId: string) => {
      const recorder = silentRecorder();
      const target = { baseUrl: "https://127.0.0.1:1/v4", authUrl: "https://127.0.0.1:1" };
      const deps = { suiteId, caseId, reads, secrets, target, spec } as unknown as CaseContextDeps;
      return { t: createCaseContext(deps, recorder), logs: recorder.logs };
    };
    const answer = { status: 200 };
    let sent = 0;
    const read = async () => {
      sent += 1;
      return answer;
    };
    const first = contextOf("catalogue", "regions");
    const second = contextOf("filters", "seed-data");
    expect(await first.t.reuse("getRegions?page_size=500", read)).toBe(answer);
    expect(await second.t.reuse("getRegions?page_size=500", read)).toBe(answer);
    expect([sent, first.logs, second.logs]).toEqual([
      1,
      [],
      ["getRegions?page_size=500: the answer catalogue/regions read is reused (no request sent)"],
    ]);
  });
});

/** A context over `store` (one suite's shared values), enough for t.shared and t.needs. */
async function contextOver(store: Map<string, unknown>, caseId = "case") {
  const spec = await specWith();
  const target = { baseUrl: "https://127.0.0.1:1/v4", authUrl: "https://127.0.0.1:1" };
  const deps = { shared: store, suiteId: "suite", caseId, target, spec } as unknown as CaseContextDeps;
  return createCaseContext(deps, silentRecorder());
}

describe("shared keys", () => {
  const balancer = sharedKey<{ id: number }>("balancer", {
    what: "the load balancer",
    from: "create-balancer",
  });

  it("hand a value from one case to a later one of the same suite, typed, by the key's name", async () => {
    const store = new Map<string, unknown>();
    const value = { id: 7 };
    (await contextOver(store, "create-balancer")).shared.set(balancer, value);
    const later = await contextOver(store, "add-profile");
    expect(later.needs(balancer)).toBe(value);
    expect(later.shared.get(sharedKey<{ id: number }>("balancer"))).toBe(value);
    later.shared.delete(balancer);
    expect(later.shared.has(balancer)).toBe(false);
  });

  const memo = sharedKey<string>("memo");
  it.each<[string, SharedName, (t: CaseContext) => unknown, string]>([
    [
      "from a named case",
      balancer,
      (t) => t.needs(balancer),
      'needs the load balancer from the earlier case "create-balancer", which did not share it',
    ],
    [
      "from no named case",
      memo,
      (t) => t.needs(memo),
      "needs memo, which no earlier case of the suite shared",
    ],
  ])(
    "without the value, skip the case saying what it needs and from which case (%s)",
    async (_, key, needs, reason) => {
      expect(neededReason(key)).toBe(reason);
      const t = await contextOver(new Map());
      expect(() => needs(t)).toThrow(new CaseSkipped(reason));
    },
  );

  it("refuse a value of another type at compile time", async () => {
    const t = await contextOver(new Map());
    // @ts-expect-error a key of one type is no key of another
    t.shared.set(balancer, "seven");
    // @ts-expect-error nor is a plain string a key
    t.shared.get("balancer");
    expect(t.shared.get(balancer)).toBe("seven");
  });
});
