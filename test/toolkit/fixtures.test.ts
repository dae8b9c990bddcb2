import { describe, expect, it } from "vitest";
import {
  chooseImage,
  chooseRegion,
  chooseType,
  findRegion,
  findRegions,
} from "../../src/toolkit/fixtures.ts";
import { type Answer, fakeCase, type SentRequest, Skipped, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();
const renamed = await specWith(["/regions", "/zones"], ["/compute/", "/machines/"]);

const regions = [
  { id: "down", status: "outage", capabilities: ["NodeBalancers", "Linodes"] },
  { id: "lb-only", status: "ok", capabilities: ["NodeBalancers"] },
  { id: "both-1", status: "ok", capabilities: ["Linodes", "NodeBalancers"] },
  { id: "vm-only", capabilities: ["Linodes"] },
  { id: "both-2", status: "ok", capabilities: ["NodeBalancers", "Linodes"] },
];
const types = [
  { id: "big", class: "dedicated", price: { hourly: 0.5 } },
  { id: "small-nanode", class: "nanode", price: { hourly: 0.0075 } },
  // Priced by the month only: $1 a month is under $0.0075 an hour.
  { id: "smallest", class: "standard", price: { monthly: 1 } },
  { id: "unpriced", class: "gpu" },
];

/** A catalogue that answers its two lists at any path whose last segment is theirs, as a target would. */
function catalogue(request: SentRequest): Answer {
  if (/\/(regions|zones)$/.test(request.path)) return { status: 200, json: { data: regions } };
  if (/\/types$/.test(request.path)) return { status: 200, json: { data: types } };
  return { status: 404, json: { errors: [{ reason: "Not found" }] } };
}

describe("fixtures from the target's catalogue", () => {
  it.each([
    [["balancers", "instances"] as const, undefined, "both-1"],
    [["balancers", "instances"] as const, "both-1", "both-2"],
    [["balancers"] as const, undefined, "lb-only"],
    [["instances"] as const, "both-1", "vm-only"],
  ])("findRegion(%j, except %s) is %s, never a region in outage", async (capabilities, except, id) => {
    const fake = fakeCase(spec, catalogue);
    expect(await findRegion(fake.t, capabilities, except)).toBe(id);
    expect(fake.sent[0]).toMatchObject({ method: "GET", path: "/regions", options: { token: null } });
  });

  it.each([
    ["data is a number", { data: 7 }, "data is a number, not an array"],
    ["an item is null", { data: [regions[1], null] }, "data[1] is null, not an object"],
  ])(
    "a catalogue page where %s fails its read naming it and skips, never a TypeError",
    async (_what, json, problem) => {
      const fake = fakeCase(spec, { status: 200, json });
      await expect(findRegions(fake.t, ["balancers"])).rejects.toBeInstanceOf(Skipped);
      expect(fake.expectations.find((one) => !one.ok)).toMatchObject({
        name: "getRegions is a page of the list",
        details: { actual: problem },
      });
    },
  );

  it("findRegions lists every one offering the capabilities", async () => {
    const fake = fakeCase(spec, catalogue);
    expect(await findRegions(fake.t, ["balancers", "instances"])).toEqual(["both-1", "both-2"]);
  });

  it("reads the catalogue where the description puts it", async () => {
    const fake = fakeCase(renamed, catalogue);
    expect(await chooseRegion(fake.t, ["balancers"])).toBe("lb-only");
    expect(await chooseType(fake.t)).toBe("smallest");
    expect(fake.sent.map((request) => request.path)).toEqual(["/zones", "/machines/types"]);
  });

  it.each([
    [undefined, "smallest"],
    ["nanode", "small-nanode"],
    ["gpu", "unpriced"],
    ["no-such-class", "smallest"],
  ])("chooseType(%s) is the cheapest of that class (or of all): %s", async (kind, id) => {
    expect(await chooseType(fakeCase(spec, catalogue).t, kind)).toBe(id);
  });

  it("configured fixtures win, without reading the catalogue", async () => {
    const options = { fixtures: { region: "mine", type: "g1", image: "my/image" } };
    const fake = fakeCase(spec, catalogue, { options });
    expect(await chooseRegion(fake.t, ["balancers"])).toBe("mine");
    expect(await chooseType(fake.t)).toBe("g1");
    expect(chooseImage(fake.t)).toBe("my/image");
    expect(chooseImage(fakeCase(spec).t)).toBe("compute/debian12");
    expect(fake.sent).toEqual([]);
  });

  it("skips, naming the capabilities, when no region offers them", async () => {
    const fake = fakeCase(spec, { status: 200, json: { data: [regions[0], regions[3]] } });
    await expect(chooseRegion(fake.t, ["balancers"])).rejects.toThrow(
      new Skipped("no listed region offers NodeBalancers on this target"),
    );
  });

  it("an unreadable catalogue fails the case and skips the rest, never blaming the regions", async () => {
    const fake = fakeCase(spec, {
      status: 400,
      json: { errors: [{ reason: "Must be 25-100", field: "page_size" }] },
    });
    await expect(chooseRegion(fake.t, ["balancers"])).rejects.toThrow(
      new Skipped("getRegions answered 400: nothing to choose a fixture from"),
    );
    expect(fake.expectations).toMatchObject([
      { name: "getRegions answers 200", ok: false, details: { actual: 400 } },
    ]);
    expect(fake.sent[0]?.options.query).toEqual({ page_size: 500 });
  });
});
