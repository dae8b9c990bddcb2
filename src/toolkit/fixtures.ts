/**
 * Fixture resolution from the target's own catalogue, found by operationId: a region (status not `outage`)
 * offering the capabilities asked for, an instance type (the cheapest, or one of a class), an image. Settings in
 * `suiteOptions.fixtures` (`region`, `type`, `image`) win over what the catalogue offers.
 * @module
 */
import type { CaseContext } from "../runner/suite-api.ts";
import { apiFacts, conventionsOf } from "../spec/conventions.ts";
import { call } from "./operations.ts";
import { expectBody, shape } from "./readers.ts";
import { expectStatus } from "./responses.ts";

interface Region {
  readonly id: string;
  readonly status?: string;
  readonly capabilities?: readonly string[];
}

interface InstanceType {
  readonly id: string;
  readonly class?: string;
  readonly price?: { readonly hourly?: number; readonly monthly?: number };
}

/** The region capabilities of this API, by what they offer. */
export type Capability = keyof typeof apiFacts.capabilities;

/** `suiteOptions.fixtures.<key>` (or the older `suiteOptions.workflows.<key>`) when it is a string. */
function configured(t: CaseContext, key: "region" | "type" | "image"): string | undefined {
  for (const group of ["fixtures", "workflows"]) {
    const value = (t.options[group] as Record<string, unknown> | undefined)?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/** What a catalogue page must be for fixtures to be chosen from it. */
const cataloguePage = shape.object({ data: shape.array(shape.record) });

/**
 * Every item of a catalogue list (one page of the largest size). A list that cannot be read fails the case's
 * assertion `<operationId> answers 200` and skips the rest of it, saying so: choosing from a catalogue that was
 * never read would skip with the wrong reason ("no region offers ..."). The read is sent once per run
 * (`t.reuse`): choosing a fixture judges nothing a second read would change, and every suite that chooses one
 * would otherwise read the same page again.
 */
async function catalogue<T>(t: CaseContext, operationId: string): Promise<readonly T[]> {
  // The catalogue is public: read it without a token, as any client of it would.
  const pageSize = conventionsOf(t.spec).pageSize.max;
  const page = await t.reuse(`${operationId}?page_size=${pageSize} without a token`, () =>
    call(t, operationId, { query: { page_size: pageSize }, token: null }),
  );
  const message = `${operationId} answered ${page.status}: the catalogue to choose fixtures from cannot be read`;
  if (!expectStatus(t, `${operationId} answers 200`, page, 200, message))
    return t.skip(`${operationId} answered ${page.status}: nothing to choose a fixture from`);
  const body = expectBody(t, `${operationId} is a page of the catalogue`, page, cataloguePage);
  if (!body)
    return t.skip(`${operationId}'s answer is not a page of the catalogue: nothing to choose a fixture from`);
  return body.data.filter((item) => typeof item.id === "string") as readonly T[];
}

/** The first listed region not in outage offering every capability asked for (other than `except`). */
export async function findRegion(
  t: CaseContext,
  capabilities: readonly Capability[],
  except?: string,
): Promise<string | undefined> {
  return (await findRegions(t, capabilities)).find((region) => region !== except);
}

/** Every listed region not in outage offering every capability asked for, in the catalogue's order. */
export async function findRegions(t: CaseContext, capabilities: readonly Capability[]): Promise<string[]> {
  const wanted = capabilities.map((capability) => apiFacts.capabilities[capability]);
  return (await catalogue<Region>(t, "getRegions"))
    .filter(
      (region) =>
        region.status !== "outage" && wanted.every((capability) => region.capabilities?.includes(capability)),
    )
    .map((region) => region.id);
}

/** The configured region, or the first listed one offering every capability; skips the case without one. */
export async function chooseRegion(t: CaseContext, capabilities: readonly Capability[]): Promise<string> {
  const region = configured(t, "region") ?? (await findRegion(t, capabilities));
  if (!region) {
    const names = capabilities.map((capability) => apiFacts.capabilities[capability]);
    return t.skip(`no listed region offers ${names.join(" and ")} on this target`);
  }
  return region;
}

/** The configured instance type, or the cheapest listed one (of class `kind` when one is); skips without any. */
export async function chooseType(t: CaseContext, kind?: string): Promise<string> {
  const given = configured(t, "type");
  if (given) return given;
  const types = await catalogue<InstanceType>(t, "getComputeTypes");
  const price = (type: InstanceType) =>
    type.price?.hourly ?? (type.price?.monthly ?? Number.POSITIVE_INFINITY) / 730;
  const ofKind = types.filter((type) => type.class === kind);
  const cheapest = [...(ofKind.length > 0 ? ofKind : types)].sort((a, b) => price(a) - price(b))[0];
  return cheapest?.id ?? t.skip("no instance type is listed on this target");
}

/** The configured image, or one every target of this API offers. */
export function chooseImage(t: CaseContext): string {
  return configured(t, "image") ?? apiFacts.defaultImage;
}
