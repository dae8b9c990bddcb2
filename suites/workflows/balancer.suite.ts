/**
 * Workflows 1, 2 and 6 of the description: a load balancer in a region that offers them starts with no
 * profiles; a profile on port 80 with check `connection` is created (and a second one on the same port refused,
 * naming `port`); then the profile is switched to HTTPS on 443 with a certificate made for the run (a blank
 * subject and a key that is not the certificate's are refused, naming the field; the certificate and key are
 * never echoed), and a profile created directly as https on 443 works too. The cases tagged `data-plane` connect
 * to the load balancer itself: its profile's port accepts connections, on the new port once the profile moves (and
 * no longer on the old one), and the TLS handshake on 443 presents the uploaded certificate. Creates one load balancer, deleted at the end of the run with its profiles.
 */

import {
  type CaseContext,
  call,
  chooseRegion,
  createdId,
  createRegistered,
  dataPlane,
  defineSuite,
  expectBody,
  expectRefusal,
  expectSame,
  expectSuccess,
  fingerprintOf,
  isSuccess,
  type LiveResponse,
  makeStrayKey,
  makeTlsPair,
  pemBody,
  portAccepts,
  presentedFingerprint,
  shape,
  sharedKey,
  type TlsPair,
} from "../../src/index.ts";
import { quickChecks } from "./support/quick-checks.ts";

/** The creates of what the workflows make; each one's delete is its resource's, found in the description. */
const balancers = "createNodeBalancer";
const profiles = "createNodeBalancerConfig";

/** What the workflows hand on: the load balancer and its address (workflow 1), the profile (2), HTTPS's certificate (6). */
const balancerId = sharedKey<number>("balancer", { what: "the load balancer", from: "create-balancer" });
const balancerIpv4 = sharedKey<string>("balancer-ipv4", {
  what: "the load balancer's ipv4 address",
  from: "create-balancer",
});
const profileId = sharedKey<number>("profile", { what: "the port 80 profile", from: "add-profile" });
const httpsCertificate = sharedKey<string>("https-certificate", {
  what: "the https profile's certificate",
  from: "https",
});

/** Where the port-moves case moves the port 80 profile (a port below 1024: its loopback stand-in is 20081). */
const movedPort = 81;

/** The path parameters of the profile workflow 2 created. */
function profileOf(t: CaseContext): [number, number] {
  const balancer = t.needs(balancerId);
  return [balancer, t.needs(profileId)];
}

/** Neither the certificate nor the key comes back: not as PEM, not as its base64 body, not with `\n` escapes. */
function expectNoEcho(t: CaseContext, step: string, response: LiveResponse, pair: TlsPair): void {
  const flat = response.text.replace(/\\n|\s/g, "");
  const body = response.json as { ssl_cert?: unknown; ssl_key?: unknown } | undefined;
  // What came back is said by its kind, never by its text: an echoed key's first characters are no one's to read.
  const shown = (value: unknown) =>
    typeof value === "string" && value !== "<REDACTED>"
      ? `a text of ${value.length} characters (withheld)`
      : value;
  t.expect(
    `${step}: the answer does not echo ssl_key`,
    !flat.includes(pemBody(pair.key)) && !/PRIVATE KEY/.test(response.text),
    { expected: "ssl_key not echoed (e.g. <REDACTED>)", actual: shown(body?.ssl_key), response },
  );
  t.expect(`${step}: the answer does not echo ssl_cert`, !flat.includes(pemBody(pair.cert)), {
    expected: "ssl_cert not echoed (e.g. <REDACTED>)",
    actual: shown(body?.ssl_cert),
    response,
  });
}

/** Where this run reaches the load balancer of workflow 1 (skips without one, or without `--data-plane`). */
function balancerHost(t: CaseContext): string {
  const plane = dataPlane(t);
  if (plane.unavailable) return t.skip(plane.unavailable);
  const ipv4 = t.needs(balancerIpv4);
  const host = plane.hostFor(ipv4);
  return host ?? t.skip(`the load balancer's ipv4 ${ipv4} is not an address this run can reach`);
}

/** Whether `host:port` accepts a connection, as `listening` says it must (the answer logged either way). */
async function expectListening(t: CaseContext, name: string, host: string, port: number, listening: boolean) {
  const { accepted, summary } = await portAccepts(host, port);
  t.log(`${host}:${port}: ${summary}`);
  const expected = `${listening ? "a" : "no"} connection accepted on ${host}:${port}`;
  t.expect(name, accepted === listening, { expected, actual: summary });
}

function expectHttps(t: CaseContext, step: string, response: LiveResponse): void {
  const body = response.json as { protocol?: unknown; port?: unknown } | undefined;
  expectSame(t, `${step}: protocol is https`, body?.protocol, "https");
  expectSame(t, `${step}: port is 443`, body?.port, 443);
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
        const region = await chooseRegion(t, ["balancers"], balancers);
        const label = t.label("balancer");
        const json = { region, label, client_conn_throttle: 0 };
        const { response: created, id } = await createRegistered(t, balancers, "load balancer", { json });
        expectSuccess(t, "the load balancer is created", created);
        if (id === undefined)
          return void t.expect("the created load balancer has an integer id", false, {
            actual: created.json,
          });
        const body = expectBody(t, "the created load balancer is described", created, shape.record);
        if (!body) return;
        expectSame(t, "the load balancer is in the region asked for", body.region, region);
        expectSame(t, "the load balancer has the label asked for", body.label, label);
        t.shared.set(balancerId, id);
        if (typeof body.ipv4 === "string") t.shared.set(balancerIpv4, body.ipv4);
        const configs = await call(t, "getNodeBalancerConfigs", { params: [id] });
        const page = configs.json as { data?: unknown[]; results?: unknown } | undefined;
        expectSame(t, "its profiles are listed", configs.status, 200);
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
        const params = [t.needs(balancerId)];
        const json = { label: t.label("http"), port: 80, protocol: "http", ...quickChecks };
        const { response: created, id } = await createRegistered(t, profiles, "profile", { params, json });
        expectSuccess(t, "the profile is created", created);
        if (
          !t.expect("the profile is returned with its id", id !== undefined, { actual: created.json }) ||
          id === undefined
        )
          return;
        const body = expectBody(t, "the created profile is described", created, shape.record);
        if (!body) return;
        expectSame(t, "the profile configures port 80", body.port, 80);
        expectSame(t, "the profile checks connection", body.check, "connection");
        t.shared.set(profileId, id);
        const read = await call(t, "getNodeBalancerConfig", { params: [...params, id] });
        t.expect("the profile reads back by its id", read.status === 200 && createdId(read) === id, {
          expected: id,
          actual: createdId(read) ?? read.status,
        });

        const again = { label: t.label("http-again"), port: 80, protocol: "http", check: "connection" };
        const { response: second } = await createRegistered(t, profiles, "profile (second on port 80)", {
          params,
          json: again,
        });
        expectRefusal(t, "a second profile on port 80", second, "port");
      },
    },
    {
      id: "port-listens",
      title:
        "Workflow 2, data plane: once the profile exists, the load balancer accepts connections on port 80",
      tags: ["data-plane"],
      run: async (t) => {
        profileOf(t);
        const host = balancerHost(t);
        await expectListening(
          t,
          "the load balancer accepts a connection on the profile's port",
          host,
          80,
          true,
        );
      },
    },
    {
      id: "port-moves",
      title:
        "Workflow 2, data plane: a profile moved to another port is served on its new port, no longer on its old one",
      tags: ["data-plane"],
      run: async (t) => {
        const params = profileOf(t);
        const host = balancerHost(t);
        const json = { port: movedPort };
        expectSuccess(t, "the profile moves", await call(t, "updateNodeBalancerConfig", { params, json }));
        const read = await call(t, "getNodeBalancerConfig", { params });
        const shown = (read.json as { port?: unknown } | undefined)?.port;
        if (!expectSame(t, `the moved profile reads back on port ${movedPort}`, shown, movedPort)) return;
        const moved = "the load balancer accepts a connection on the profile's new port";
        await expectListening(t, moved, host, movedPort, true);
        await expectListening(
          t,
          "the load balancer no longer listens on the profile's old port",
          host,
          80,
          false,
        );
      },
    },
    {
      id: "https",
      title:
        "Workflow 6: HTTPS needs a certificate with a subject and its own key, switches the profile to 443, never echoes them",
      run: async (t) => {
        const params = profileOf(t);
        const [good, blank, stray, fresh] = await Promise.all([
          makeTlsPair({ subject: "CN=conform.example, O=conform, C=US" }),
          makeTlsPair({ subject: "" }),
          makeStrayKey(),
          makeTlsPair({ subject: "CN=www.conform.example, O=conform, C=US" }),
        ]);
        // The run's keys are secrets: a failing assertion may quote a body that echoes them.
        for (const key of [good.key, blank.key, fresh.key, stray]) {
          t.secret(key);
          t.secret(pemBody(key));
        }
        const https = ({ cert, key }: TlsPair) => ({
          protocol: "https",
          port: 443,
          ssl_cert: cert,
          ssl_key: key,
        });
        const update = (pair: TlsPair) => call(t, "updateNodeBalancerConfig", { params, json: https(pair) });

        const refusedBlank = await update(blank);
        expectRefusal(t, "a certificate with a blank subject", refusedBlank, "ssl_cert");
        expectNoEcho(t, "the blank-subject refusal", refusedBlank, blank);

        const switched = await update(good);
        expectSuccess(t, "a valid certificate and key switch the profile to HTTPS", switched);
        expectHttps(t, "the switched profile", switched);
        expectNoEcho(t, "the switch", switched, good);
        const read = await call(t, "getNodeBalancerConfig", { params });
        expectHttps(t, "the switched profile read back", read);
        expectNoEcho(t, "the switched profile read back", read, good);

        const mismatched = await update({ cert: good.cert, key: stray });
        expectRefusal(t, "a key that does not match the certificate", mismatched, "ssl_key");
        expectNoEcho(t, "the mismatched-key refusal", mismatched, { cert: good.cert, key: stray });

        // Port 443 is this profile's now: free it, then create a profile directly as https on 443.
        const removed = await call(t, "deleteNodeBalancerConfig", { params });
        expectSuccess(t, "the switched profile is deleted", removed);
        const direct = { label: t.label("https"), check: "connection", ...https(fresh) };
        const { response: created } = await createRegistered(t, profiles, "profile (https)", {
          params: [params[0]],
          json: direct,
        });
        expectSuccess(t, "a profile created directly as https on 443 is accepted", created);
        expectHttps(t, "the https profile", created);
        expectNoEcho(t, "the https profile", created, fresh);
        if (isSuccess(created)) t.shared.set(httpsCertificate, fresh.cert);
      },
    },
    {
      id: "https-certificate",
      title:
        "Workflow 6, data plane: the TLS handshake on port 443 presents exactly the uploaded certificate",
      tags: ["data-plane"],
      run: async (t) => {
        const certificate = t.needs(httpsCertificate);
        const host = balancerHost(t);
        const expected = fingerprintOf(certificate);
        const { fingerprint, summary } = await presentedFingerprint(host, 443);
        t.log(`${host}:443 presents ${summary}`);
        t.expect("the handshake on port 443 presents the uploaded certificate", fingerprint === expected, {
          expected: `SHA-256 ${expected}`,
          actual: summary,
        });
      },
    },
  ],
});
