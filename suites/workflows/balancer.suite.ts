/**
 * Workflows 1, 2 and 6 of the description: a load balancer in a region that offers them starts with no
 * profiles; a profile on port 80 with check `connection` is created (and a second one on the same port refused,
 * naming `port`); then the profile is switched to HTTPS on 443 with a certificate made for the run (a blank
 * subject and a key that is not the certificate's are refused, naming the field; the certificate and key are
 * never echoed), and a profile created directly as https on 443 works too. Creates one load balancer, deleted at
 * the end of the run with its profiles.
 */

import { makeStrayKey, makeTlsPair, pemBody, type TlsPair } from "../../src/generators/certificates.ts";
import { type CaseContext, defineSuite, type LiveResponse } from "../../src/index.ts";
import {
  chooseRegion,
  createdId,
  expectRefusal,
  quickChecks,
  registerCreated,
  success,
} from "./workflow-kit.ts";

interface Balancer {
  readonly id: number;
  readonly region: string;
}

function balancerOf(t: CaseContext): Balancer {
  const balancer = t.shared.get("balancer") as Balancer | undefined;
  if (!balancer) t.skip("no load balancer: workflow 1 did not create one");
  return balancer;
}

function profileOf(t: CaseContext): { balancer: Balancer; profileId: number } {
  const balancer = balancerOf(t);
  const profileId = t.shared.get("profile") as number | undefined;
  if (profileId === undefined) t.skip("no profile: workflow 2 did not create one");
  return { balancer, profileId };
}

/** Registers the run's TLS material as secrets: a failing assertion may quote a body that echoes them. */
function secretPair(t: CaseContext, pair: TlsPair): TlsPair {
  t.secret(pair.key);
  t.secret(pemBody(pair.key));
  return pair;
}

/** Neither the certificate nor the key comes back: not as PEM, not as its base64 body, not with `\n` escapes. */
function expectNoEcho(t: CaseContext, step: string, response: LiveResponse, pair: TlsPair): void {
  const flat = response.text.replace(/\\n|\s/g, "");
  const body = response.json as { ssl_cert?: unknown; ssl_key?: unknown } | undefined;
  t.expect(
    `${step}: the answer does not echo ssl_key`,
    !flat.includes(pemBody(pair.key)) && !/PRIVATE KEY/.test(response.text),
    {
      expected: "ssl_key not echoed (e.g. <REDACTED>)",
      actual: typeof body?.ssl_key === "string" ? `${body.ssl_key.slice(0, 24)}...` : body?.ssl_key,
      response,
    },
  );
  t.expect(`${step}: the answer does not echo ssl_cert`, !flat.includes(pemBody(pair.cert)), {
    expected: "ssl_cert not echoed (e.g. <REDACTED>)",
    actual: typeof body?.ssl_cert === "string" ? `${body.ssl_cert.slice(0, 40)}...` : body?.ssl_cert,
    response,
  });
}

function expectHttps(t: CaseContext, step: string, response: LiveResponse): void {
  const body = response.json as { protocol?: unknown; port?: unknown } | undefined;
  t.expect(`${step}: protocol is https`, body?.protocol === "https", {
    expected: "https",
    actual: body?.protocol,
    response,
  });
  t.expect(`${step}: port is 443`, body?.port === 443, { expected: 443, actual: body?.port, response });
}

export default defineSuite({
  id: "workflow-balancer",
  title: "Workflows 1, 2 and 6: a load balancer, its profiles, and HTTPS",
  description:
    "Creates a load balancer (no profiles at first), a profile on port 80 (one per port), then switches it to HTTPS.",
  tags: ["writes"],
  cases: [
    {
      id: "create-balancer",
      title: "Workflow 1: a load balancer created in a region that offers them has no configuration profiles",
      run: async (t) => {
        const region = await chooseRegion(t, ["NodeBalancers"]);
        const label = t.label("balancer");
        const created = await t.api.post("/nodebalancers", { region, label, client_conn_throttle: 0 });
        const id = registerCreated(t, created, "load balancer", (id) => `/nodebalancers/${id}`);
        t.expect("the load balancer is created", success(created), {
          expected: 200,
          actual: created.status,
        });
        if (id === undefined) {
          t.expect("the created load balancer has an integer id", false, { actual: created.json });
          return;
        }
        const body = created.json as { region?: unknown; label?: unknown };
        t.expect("the load balancer is in the region asked for", body.region === region, {
          expected: region,
          actual: body.region,
        });
        t.expect("the load balancer has the label asked for", body.label === label, {
          expected: label,
          actual: body.label,
        });
        t.shared.set("balancer", { id, region } satisfies Balancer);
        const configs = await t.api.get(`/nodebalancers/${id}/configs`);
        const page = configs.json as { data?: unknown[]; results?: unknown } | undefined;
        t.expect("its profiles are listed", configs.status === 200, {
          expected: 200,
          actual: configs.status,
        });
        t.expect(
          "a new load balancer has no configuration profiles",
          Array.isArray(page?.data) && page.data.length === 0 && page.results === 0,
          { expected: { data: [], results: 0 }, actual: { data: page?.data, results: page?.results } },
        );
      },
    },
    {
      id: "add-profile",
      title: "Workflow 2: a profile on port 80 with check connection; a second profile on port 80 is refused",
      run: async (t) => {
        const balancer = balancerOf(t);
        const path = `/nodebalancers/${balancer.id}/configs`;
        const created = await t.api.post(path, {
          label: t.label("http"),
          port: 80,
          protocol: "http",
          ...quickChecks,
        });
        const id = registerCreated(t, created, "profile", (id) => `${path}/${id}`);
        t.expect("the profile is created", success(created), { expected: 200, actual: created.status });
        if (!t.expect("the profile is returned with its id", id !== undefined, { actual: created.json }))
          return;
        const body = created.json as { port?: unknown; check?: unknown };
        t.expect("the profile configures port 80", body.port === 80, { expected: 80, actual: body.port });
        t.expect("the profile checks connection", body.check === "connection", {
          expected: "connection",
          actual: body.check,
        });
        t.shared.set("profile", id);
        const read = await t.api.get(`${path}/${id}`);
        t.expect("the profile reads back by its id", read.status === 200 && createdId(read) === id, {
          expected: id,
          actual: createdId(read) ?? read.status,
        });

        const second = await t.api.post(path, {
          label: t.label("http-again"),
          port: 80,
          protocol: "http",
          check: "connection",
        });
        registerCreated(t, second, "profile (second on port 80)", (id) => `${path}/${id}`);
        expectRefusal(t, "a second profile on port 80", second, "port");
      },
    },
    {
      id: "https",
      title:
        "Workflow 6: HTTPS needs a certificate with a subject and its own key, switches the profile to 443, never echoes them",
      run: async (t) => {
        const { balancer, profileId } = profileOf(t);
        const path = `/nodebalancers/${balancer.id}/configs/${profileId}`;
        const [good, blank, stray, fresh] = await Promise.all([
          makeTlsPair({ subject: "CN=conform.example, O=conform, C=US" }),
          makeTlsPair({ subject: "" }),
          makeStrayKey(),
          makeTlsPair({ subject: "CN=www.conform.example, O=conform, C=US" }),
        ]);
        for (const pair of [good, blank, fresh]) secretPair(t, pair);
        t.secret(stray);
        t.secret(pemBody(stray));

        const refusedBlank = await t.api.put(path, {
          protocol: "https",
          port: 443,
          ssl_cert: blank.cert,
          ssl_key: blank.key,
        });
        expectRefusal(t, "a certificate with a blank subject", refusedBlank, "ssl_cert");
        expectNoEcho(t, "the blank-subject refusal", refusedBlank, blank);

        const switched = await t.api.put(path, {
          protocol: "https",
          port: 443,
          ssl_cert: good.cert,
          ssl_key: good.key,
        });
        t.expect("a valid certificate and key switch the profile to HTTPS", success(switched), {
          expected: 200,
          actual: switched.status,
        });
        expectHttps(t, "the switched profile", switched);
        expectNoEcho(t, "the switch", switched, good);
        const read = await t.api.get(path);
        expectHttps(t, "the switched profile read back", read);
        expectNoEcho(t, "the switched profile read back", read, good);

        const mismatched = await t.api.put(path, {
          protocol: "https",
          port: 443,
          ssl_cert: good.cert,
          ssl_key: stray,
        });
        expectRefusal(t, "a key that does not match the certificate", mismatched, "ssl_key");
        expectNoEcho(t, "the mismatched-key refusal", mismatched, { cert: good.cert, key: stray });

        // Port 443 is this profile's now: free it, then create a profile directly as https on 443.
        const removed = await t.api.delete(path);
        t.expect("the switched profile is deleted", success(removed), {
          expected: 200,
          actual: removed.status,
        });
        const configs = `/nodebalancers/${balancer.id}/configs`;
        const direct = await t.api.post(configs, {
          label: t.label("https"),
          port: 443,
          protocol: "https",
          check: "connection",
          ssl_cert: fresh.cert,
          ssl_key: fresh.key,
        });
        registerCreated(t, direct, "profile (https)", (id) => `${configs}/${id}`);
        t.expect("a profile created directly as https on 443 is accepted", success(direct), {
          expected: 200,
          actual: direct.status,
        });
        expectHttps(t, "the https profile", direct);
        expectNoEcho(t, "the https profile", direct, fresh);
      },
    },
  ],
});
