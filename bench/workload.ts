/**
 * The requests sections 2 and 3 send, and the state they need: the reference server seeded with 100 load
 * balancers over 4 regions, a filtered list that answers a full page of 25 of them, and a create as the write.
 * @module
 */
import type { Pool } from "undici";
import { rawLoad } from "./raw-client.ts";

export const seededBalancers = 100;
const regions = ["us-east", "us-central", "eu-west", "ap-south"];

/** GET /v4/nodebalancers?page_size=25 with X-Filter {"region":"us-east"}: 25 of the 100, one full page. */
export const filteredList = Object.freeze({
  path: "/nodebalancers",
  query: { page_size: 25 },
  filter: { region: "us-east" },
  describe: "GET /nodebalancers?page_size=25, X-Filter {region} (25 of 100 items)",
});

export function apiHeaders(token: string): Record<string, string> {
  return { accept: "application/json", authorization: `Bearer ${token}` };
}

/** The base URL's path (`/v4`), to prefix the API paths for a raw Pool bound to the origin. */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/$/, "");
}

export function filteredListRequest(baseUrl: string, token: string) {
  return {
    method: "GET" as const,
    path: `${basePathOf(baseUrl)}${filteredList.path}?page_size=${filteredList.query.page_size}`,
    headers: { ...apiHeaders(token), "x-filter": JSON.stringify(filteredList.filter) },
  };
}

export function createRequest(baseUrl: string, token: string) {
  return {
    method: "POST" as const,
    path: `${basePathOf(baseUrl)}/nodebalancers`,
    headers: { ...apiHeaders(token), "content-type": "application/json" },
    body: (index: number) =>
      JSON.stringify({ region: regions[index % regions.length], tags: ["bench"], client_conn_throttle: 5 }),
    describe: "POST /nodebalancers {region, tags, client_conn_throttle}",
  };
}

/** Creates the seeded load balancers (labels `bench-lb-<n>`), 4 at a time. */
export async function seed(pool: Pool, baseUrl: string, token: string): Promise<void> {
  const create = createRequest(baseUrl, token);
  const result = await rawLoad(pool, {
    ...create,
    body: (index) =>
      JSON.stringify({
        region: regions[index % regions.length],
        label: `bench-lb-${index + 1}`,
        tags: ["bench"],
      }),
    concurrency: 4,
    count: seededBalancers,
    maxMs: 30_000,
  });
  if (result.statuses["200"] !== seededBalancers) {
    throw new Error(`seeding the reference server failed: ${JSON.stringify(result.statuses)}`);
  }
}

/** Deletes the load balancers with these ids (what a write benchmark created), untimed. */
export async function deleteBalancers(
  pool: Pool,
  baseUrl: string,
  token: string,
  ids: readonly number[],
): Promise<void> {
  const base = basePathOf(baseUrl);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const answer = await pool.request({
        method: "DELETE",
        path: `${base}/nodebalancers/${id}`,
        headers: apiHeaders(token),
      });
      await answer.body.dump();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}
