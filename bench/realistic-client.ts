/**
 * A faithful script of what a real client of the Cloud Infrastructure API v4 does, for driving traffic through
 * `conform proxy` (the traffic matrix: `bench/traffic-matrix.ts`, `test/bench/traffic-matrix.test.ts`). It knows
 * nothing of conform: plain `fetch` to a base URL with a bearer token, the calls the service's SDKs make (linodego's
 * cassettes in test/fixtures/go-sdk-cassettes, `@linode/api-v4`), in the order an application makes them:
 * - plain reads: public regions with and without a token, the profile with a token, without one and with a
 *   malformed one, the settings page saving the user's timezone;
 * - the instance types paged through at the smallest page size, the default page, and filtered lists (X-Filter)
 *   beside them;
 * - the description's six workflows: a load balancer, a profile on port 80, two instances created off, given a
 *   private IPv4 once provisioned and booted (polled until running, and the SDK's event poller on the boot event),
 *   each registered as a node (the second through the deprecated alias, as older SDKs do), the profile's
 *   `nodes_status` read once every node is checked, and the switch to HTTPS with a certificate and key;
 * - an OAuth client created, read back, listed and renamed, and the application signing its user in (login form,
 *   code exchange, a read with the user's token, a refresh); a user's mistake (a create without its region);
 * - the clean-up: each resource deleted and its absence confirmed.
 * Like a real client it logs each failure and goes on. It is deterministic: fixed labels, a fixed password and
 * certificate, polls bounded by count.
 * @module
 */

/** Where the client talks to: the API's base URL (ending in /v4) and the user's personal access token. */
export interface ClientTarget {
  readonly baseUrl: string;
  readonly token: string;
  /** The OAuth login server and a user of it: the application signs its user in (skipped without them). */
  readonly authUrl?: string;
  readonly login?: { readonly username: string; readonly password: string };
}

/** One line of the client's own log: what it asked, what it got. */
export interface ClientLogLine {
  readonly step: string;
  readonly status: number | "no answer";
}

interface Answer {
  readonly status: number | "no answer";
  readonly json: Record<string, unknown> | undefined;
  readonly location?: string | undefined;
}

/** A certificate and key a user would upload (EC P-256, subject filled in, valid until 2126). */
const certificate = `-----BEGIN CERTIFICATE-----
MIICMTCCAdegAwIBAgIUT/1W0+vsvnDg/7shCk78408VztgwCgYIKoZIzj0EAwIw
bTELMAkGA1UEBhMCVVMxFTATBgNVBAgMDFBlbm5zeWx2YW5pYTEVMBMGA1UEBwwM
UGhpbGFkZWxwaGlhMRUwEwYDVQQKDAxFeGFtcGxlIFNob3AxGTAXBgNVBAMMEHNo
b3AuZXhhbXBsZS5jb20wIBcNMjYxMTI3MjMxNTM2WhgPMjEyNjExMDMyMzE1MzZa
MG0xCzAJBgNVBAYTAlVTMRUwEwYDVQQIDAxQZW5uc3lsdmFuaWExFTATBgNVBAcM
DFBoaWxhZGVscGhpYTEVMBMGA1UECgwMRXhhbXBsZSBTaG9wMRkwFwYDVQQDDBBz
aG9wLmV4YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEV6xdB4rn
Fl7453rJq/2Uhki+LlG81CfydTVZA+2ZflWqgSGpWUZzERERK/uuNrNnBT4QslRb
ENF7PWEt+kM02KNTMFEwHQYDVR0OBBYEFDNqdLCrMKaqkxkmg9uXjLdldA9KMB8G
A1UdIwQYMBaAFDNqdLCrMKaqkxkmg9uXjLdldA9KMA8GA1UdEwEB/wQFMAMBAf8w
CgYIKoZIzj0EAwIDSAAwRQIgKv2rdsFINKDsgkICuEdhj26SbnAYPPjsNYbF3fLs
6yQCIQD5smtZbWxfeao2JWUht2yQtv9uZBRmgOQxF3tX44C0Wg==
-----END CERTIFICATE-----
`;
// A throwaway key made for this script (it protects nothing), uploaded as a user uploads theirs.
const privateKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgrhok6GOd5qrsvVBy
HBnu/q8GFzwBx6RAiblZZwj2qNGhRANCAARXrF0HiucWXvjnesmr/ZSGSL4uUbzU
J/J1NVkD7Zl+VaqBIalZRnMREREr+642s2cFPhCyVFsQ0Xs9YS36QzTY
-----END PRIVATE KEY-----
`;

const region = "us-east";
const instanceType = "g6-standard-1";
const image = "compute/debian12";
const rootPass = "c0rrect-Horse-battery-Staple-42";
/** The most reads a wait makes before the client gives up on it (and logs so). */
const maxPolls = 40;
const pollEveryMs = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client session: sends requests, keeps its log, never throws on an answer it did not want. */
class Session {
  readonly log: ClientLogLine[] = [];
  readonly #target: ClientTarget;

  constructor(target: ClientTarget) {
    this.#target = target;
  }

  async send(
    step: string,
    method: string,
    path: string,
    options: { body?: unknown; filter?: unknown; auth?: string | null } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": "shop-provisioner/1.4",
    };
    const auth = options.auth === undefined ? `Bearer ${this.#target.token}` : options.auth;
    if (auth !== null) headers.authorization = auth;
    if (options.filter !== undefined) headers["x-filter"] = JSON.stringify(options.filter);
    if (options.body !== undefined) headers["content-type"] = "application/json";
    try {
      const response = await fetch(`${this.#target.baseUrl}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
      const text = await response.text();
      this.log.push({ step, status: response.status });
      return { status: response.status, json: parseObject(text) };
    } catch {
      this.log.push({ step, status: "no answer" });
      return { status: "no answer", json: undefined };
    }
  }

  /** A form posted to the login server (`url` is absolute); a redirect is not followed: its Location is kept. */
  async sendForm(step: string, url: string, form: Record<string, string>): Promise<Answer> {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
        redirect: "manual",
      });
      const text = await response.text();
      this.log.push({ step, status: response.status });
      return {
        status: response.status,
        json: parseObject(text),
        location: response.headers.get("location") ?? undefined,
      };
    } catch {
      this.log.push({ step, status: "no answer" });
      return { status: "no answer", json: undefined };
    }
  }

  /** Reads `path` until `done` holds of its answer, at most {@link maxPolls} times; the last answer. */
  async poll(step: string, path: string, done: (answer: Answer) => boolean, filter?: unknown) {
    let answer: Answer = { status: "no answer", json: undefined };
    for (let poll = 0; poll < maxPolls; poll += 1) {
      answer = await this.send(step, "GET", path, filter === undefined ? {} : { filter });
      if (done(answer) || answer.status === "no answer") return answer;
      await sleep(pollEveryMs);
    }
    this.log.push({ step: `${step}: gave up after ${maxPolls} reads`, status: answer.status });
    return answer;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const ok = (answer: Answer) =>
  typeof answer.status === "number" && answer.status >= 200 && answer.status < 300;
const idOf = (answer: Answer) => (ok(answer) ? answer.json?.id : undefined);

/** Runs the whole script against `target`; its log. */
export async function runRealisticClient(target: ClientTarget): Promise<ClientLogLine[]> {
  const session = new Session(target);
  await plainReads(session);
  await browseTypes(session);
  const balancer = await createBalancer(session);
  const instances = [
    await provisionInstance(session, "shop-web-1"),
    await provisionInstance(session, "shop-web-2"),
  ];
  if (balancer) await runBalancer(session, balancer, instances);
  await oauthClient(session, target);
  await cleanUp(session, balancer?.id, instances);
  return session.log;
}

async function plainReads(session: Session): Promise<void> {
  await session.send("regions, before signing in", "GET", "/regions", { auth: null });
  await session.send("regions", "GET", "/regions");
  await session.send("profile", "GET", "/profile");
  await session.send("profile, signed out", "GET", "/profile", { auth: null });
  await session.send("profile, a token pasted wrong", "GET", "/profile", {
    auth: "Bearer 3f1c9a-not-a-token",
  });
  await session.send("settings: the user's timezone", "PUT", "/profile", {
    body: { timezone: "America/New_York" },
  });
}

/** The plan picker: every type, page by page at the smallest size, then the filtered views beside it. */
async function browseTypes(session: Session): Promise<void> {
  let pages = 1;
  for (let page = 1; page <= pages && page <= 10; page += 1) {
    const answer = await session.send(
      `types page ${page}`,
      "GET",
      `/compute/types?page=${page}&page_size=25`,
    );
    pages = typeof answer.json?.pages === "number" ? answer.json.pages : 1;
  }
  await session.send("types, default page", "GET", "/compute/types");
  await session.send("types: standard plans", "GET", "/compute/types", { filter: { class: "standard" } });
  await session.send("types: 8 GB and up, biggest first", "GET", "/compute/types", {
    filter: { memory: { "+gte": 8192 }, "+order_by": "memory", "+order": "desc" },
  });
  await session.send("types: more than 2 CPUs, not highmem", "GET", "/compute/types", {
    filter: { "+and": [{ vcpus: { "+gt": 2 } }, { class: { "+neq": "highmem" } }] },
  });
  await session.send("types: dedicated or gpu", "GET", "/compute/types", {
    filter: { "+or": [{ class: "dedicated" }, { class: "gpu" }] },
  });
  // The plan picker's search box, as the user typed it.
  await session.send("types: search 'dedicated'", "GET", "/compute/types", {
    filter: { label: { "+contains": "dedicated" } },
  });
  await session.send("types: standard with 4 CPUs and up, or gpu", "GET", "/compute/types", {
    filter: { "+or": [{ "+and": [{ class: "standard" }, { vcpus: { "+gte": 4 } }] }, { class: "gpu" }] },
  });
}

interface Balancer {
  readonly id: number;
}

/** Workflow 1, with the user's first try missing its region (a 400 a real form sends). */
async function createBalancer(session: Session): Promise<Balancer | undefined> {
  await session.send("balancer, region forgotten", "POST", "/nodebalancers", {
    body: { label: "shop-lb", client_conn_throttle: 0 },
  });
  const created = await session.send("balancer", "POST", "/nodebalancers", {
    body: { region, label: "shop-lb", client_conn_throttle: 0 },
  });
  const id = idOf(created);
  if (typeof id !== "number") return undefined;
  await session.send("balancer, read", "GET", `/nodebalancers/${id}`);
  await session.send("balancer, its profiles", "GET", `/nodebalancers/${id}/configs`);
  await session.send("balancer, renamed", "PUT", `/nodebalancers/${id}`, { body: { label: "shop-lb-prod" } });
  await session.send("balancer, read after rename", "GET", `/nodebalancers/${id}`);
  await session.send("balancers", "GET", "/nodebalancers");
  return { id };
}

interface Instance {
  readonly id: number;
  readonly privateIp: string | undefined;
}

/** Workflow 3 for one instance: created off, a private IPv4, booted, waited for as the SDK waits. */
async function provisionInstance(session: Session, label: string): Promise<Instance | undefined> {
  const created = await session.send(`instance ${label}`, "POST", "/compute/instances", {
    body: { region, type: instanceType, image, root_pass: rootPass, booted: false, label },
  });
  const id = idOf(created);
  if (typeof id !== "number") return undefined;
  // As SDK users wait for an unbooted instance: until it is provisioned (offline), then they attach and boot it.
  await session.poll(`instance ${label}: provisioned?`, `/compute/instances/${id}`, (answer) => {
    return answer.json?.status !== "provisioning" || !ok(answer);
  });
  const ip = await session.send(`instance ${label}: private IPv4`, "POST", "/networking/ips", {
    body: { type: "ipv4", public: false, compute_id: id },
  });
  const address = ok(ip) && typeof ip.json?.address === "string" ? ip.json.address : undefined;
  await session.send(`instance ${label}: boot`, "POST", `/compute/instances/${id}/boot`);
  await session.poll(`instance ${label}: running?`, `/compute/instances/${id}`, (answer) => {
    return answer.json?.status === "running" || !ok(answer);
  });
  await session.poll(
    `instance ${label}: boot event finished?`,
    "/account/events",
    (answer) => {
      const events = Array.isArray(answer.json?.data) ? (answer.json.data as Record<string, unknown>[]) : [];
      const boot = events.find((event) => event.action === "compute_boot");
      return !ok(answer) || boot?.status === "finished";
    },
    { "entity.id": id, "entity.type": "compute", "+order_by": "created", "+order": "desc" },
  );
  return { id, privateIp: address };
}

/** Workflows 2, 4, 5 and 6 on the balancer. */
async function runBalancer(
  session: Session,
  balancer: Balancer,
  instances: readonly (Instance | undefined)[],
): Promise<void> {
  const base = `/nodebalancers/${balancer.id}/configs`;
  const profile = await session.send("profile on port 80", "POST", base, {
    body: { label: "shop-http", port: 80, protocol: "http", check: "connection" },
  });
  const configId = idOf(profile);
  if (typeof configId !== "number") return;
  const config = `${base}/${configId}`;
  await session.send("profile, read", "GET", config);
  const [first, second] = instances;
  if (first?.privateIp)
    await session.send("node shop-web-1", "POST", `${config}/nodes`, {
      body: { label: "shop-web-1", address: `${first.privateIp}:80` },
    });
  // Older SDKs add a node through the deprecated path that ends at the profile.
  if (second?.privateIp)
    await session.send("node shop-web-2, old path", "POST", config, {
      body: { label: "shop-web-2", address: `${second.privateIp}:80` },
    });
  await session.poll("nodes checked?", `${config}/nodes`, (answer) => {
    const nodes = Array.isArray(answer.json?.data) ? (answer.json.data as Record<string, unknown>[]) : [];
    return !ok(answer) || (nodes.length > 0 && nodes.every((node) => node.status !== "Unknown"));
  });
  // The dashboard's profile page: the counts, then the nodes table under them.
  await session.send("profile: how many nodes are up", "GET", config);
  await session.send("profile: its nodes", "GET", `${config}/nodes`);
  await session.send("switch to HTTPS", "PUT", config, {
    body: { protocol: "https", port: 443, ssl_cert: certificate, ssl_key: privateKey },
  });
  await session.send("profile after the switch", "GET", config);
  await session.send("balancer's profiles after the switch", "GET", base);
}

/**
 * An application registering itself (an OAuth client created, read back, listed, renamed), then signing its user
 * in (the authorization code workflow: login, code exchange, a read with the user's token, one refresh).
 */
async function oauthClient(session: Session, target: ClientTarget): Promise<void> {
  const created = await session.send("oauth client", "POST", "/account/oauth-clients", {
    body: { label: "shop-dashboard", redirect_uri: "https://shop.example.com/callback" },
  });
  const id = idOf(created);
  if (typeof id !== "string") return;
  await session.send("oauth client, read", "GET", `/account/oauth-clients/${id}`);
  await session.send("oauth clients", "GET", "/account/oauth-clients");
  await session.send("oauth client, renamed", "PUT", `/account/oauth-clients/${id}`, {
    body: { label: "shop-dashboard-v2" },
  });
  const secret = created.json?.secret;
  if (target.authUrl && target.login && typeof secret === "string")
    await signIn(session, target.authUrl, target.login, { id, secret });
  await session.send("oauth client, deleted", "DELETE", `/account/oauth-clients/${id}`);
}

async function cleanUp(
  session: Session,
  balancerId: number | undefined,
  instances: readonly (Instance | undefined)[],
): Promise<void> {
  if (balancerId !== undefined) {
    await session.send("balancer, deleted", "DELETE", `/nodebalancers/${balancerId}`);
    await session.send("balancer, gone?", "GET", `/nodebalancers/${balancerId}`);
    await session.send("balancers after the delete", "GET", "/nodebalancers");
  }
  for (const instance of instances)
    if (instance) await session.send("instance, deleted", "DELETE", `/compute/instances/${instance.id}`);
  await session.send("events", "GET", "/account/events");
}

const redirectUri = "https://shop.example.com/callback";

/** The authorization code workflow of the description's OAuth section, as the application runs it. */
async function signIn(
  session: Session,
  authUrl: string,
  login: { readonly username: string; readonly password: string },
  client: { readonly id: string; readonly secret: string },
): Promise<void> {
  const authorized = await session.sendForm("sign in: login form", `${authUrl}/oauth/authorize`, {
    ...login,
    client_id: client.id,
    response_type: "code",
    scopes: "nodebalancers:read_only",
    redirect_uri: redirectUri,
    state: "shop-7f3a",
  });
  const code = authorized.location ? URL.parse(authorized.location)?.searchParams.get("code") : undefined;
  if (!code) return;
  const credentials = { client_id: client.id, client_secret: client.secret };
  const tokens = await session.sendForm("sign in: code exchange", `${authUrl}/oauth/token`, {
    ...credentials,
    code,
  });
  const access = tokens.json?.access_token;
  if (typeof access === "string")
    await session.send("the user's balancers", "GET", "/nodebalancers", { auth: `Bearer ${access}` });
  const refresh = tokens.json?.refresh_token;
  if (typeof refresh === "string")
    await session.sendForm("sign in: refresh", `${authUrl}/oauth/token`, {
      ...credentials,
      grant_type: "refresh_token",
      refresh_token: refresh,
    });
}
