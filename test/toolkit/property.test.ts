import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PropertyRunner, propertySeed } from "../../src/toolkit/property.ts";
import { fakeCase, liveResponse, Skipped, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();

describe("property runner", () => {
  it("a passing verdict property records one passed assertion and reports progress", async () => {
    const progress: [string, number, number][] = [];
    const fake = fakeCase(spec, undefined, { progress: (...entry) => progress.push(entry) });
    const outcome = await new PropertyRunner(fake.t, "things").check({
      name: "small numbers are small",
      arbitrary: fc.integer({ min: 0, max: 9 }),
      defaultRuns: 5,
      predicate: async (value) => (value < 10 ? true : `${value} is large`),
    });
    expect(outcome).toMatchObject({ passed: true, runs: 5 });
    expect(fake.expectations).toEqual([{ name: "property: small numbers are small", ok: true, details: {} }]);
    expect(fake.reproduction).toBeUndefined();
    expect(progress.at(-1)).toEqual(["small numbers are small", 5, 5]);
  });

  it.each([
    ["a failing verdict", async () => "no answer: the request was abandoned"],
    [
      "a thrown transport error",
      async () => {
        throw new Error("GET /regions: the run was interrupted (SIGTERM) (INTERRUPTED)");
      },
    ],
  ])(
    "interrupted mid-run with %s: nothing falsified, no reproduction, the case skips",
    async (_name, after) => {
      const controller = new AbortController();
      const fake = fakeCase(spec, undefined, { signal: controller.signal });
      let evaluations = 0;
      const checking = new PropertyRunner(fake.t, "things").check({
        name: "interrupted",
        arbitrary: fc.nat(),
        defaultRuns: 10,
        predicate: async () => {
          evaluations += 1;
          if (evaluations < 3) return true;
          controller.abort();
          return after();
        },
      });
      await expect(checking).rejects.toThrow(Skipped);
      expect(evaluations).toBe(3);
      expect(fake.expectations).toEqual([]);
      expect(fake.reproduction).toBeUndefined();
      expect(fake.logs.join("\n")).not.toMatch(/falsified/);
    },
  );

  it("a falsified verdict property records the shrunk counterexample and the replay line", async () => {
    const fake = fakeCase(spec, undefined, { propertyRuns: 40 });
    const outcome = await new PropertyRunner(fake.t, "things").check({
      name: "numbers stay below 50",
      arbitrary: fc.integer({ min: 0, max: 1000 }),
      defaultRuns: 5,
      shrinks: 200,
      predicate: async (value) => (value < 50 ? true : `${value} is 50 or more`),
    });
    expect(outcome.passed).toBe(false);
    expect(outcome.counterexample).toBe(50);
    const [failure] = fake.expectations;
    expect(failure).toMatchObject({ name: "property: numbers stay below 50", ok: false });
    expect(failure?.details).toMatchObject({
      actual: 50,
      message: expect.stringMatching(/^falsified after \d+ run\(s\) and \d+ shrink\(s\): 50 is 50 or more$/),
    });
    expect(fake.reproduction).toMatchObject({
      seed: 1,
      counterexample: 50,
      replay: expect.stringMatching(
        /^conform fuzz things --seed 1 --runs 40 --property 'suite\/case\/numbers stay below 50' --path \d+(:\d+)*$/,
      ),
    });
  });

  it("two falsified properties of one case: each failure carries its own reproduction and replay line", async () => {
    const fake = fakeCase(spec);
    const runner = new PropertyRunner(fake.t, "things");
    for (const limit of [50, 70]) {
      await runner.check({
        name: `numbers stay below ${limit}`,
        arbitrary: fc.integer({ min: 0, max: 1000 }),
        defaultRuns: 20,
        shrinks: 200,
        predicate: async (value) => (value < limit ? true : `${value} is ${limit} or more`),
      });
    }
    const failures = fake.expectations.filter((entry) => !entry.ok);
    expect(failures.map((entry) => entry.name)).toEqual([
      "property: numbers stay below 50",
      "property: numbers stay below 70",
    ]);
    const [first, second] = failures.map((entry) => entry.details.reproduction);
    expect(first).toMatchObject({
      counterexample: 50,
      replay: expect.stringContaining("numbers stay below 50'"),
    });
    expect(second).toMatchObject({
      counterexample: 70,
      replay: expect.stringContaining("numbers stay below 70'"),
    });
    // The case's reproduction stays its first falsified property's.
    expect(fake.reproduction).toEqual(first);
  });

  it("expectations: each is recorded once when all hold, the shrunk run's when one fails", async () => {
    const fake = fakeCase(spec, undefined, { embedded: false });
    const response = liveResponse({ status: 400, json: { errors: [] } });
    await new PropertyRunner(fake.t, "bodies").check({
      name: "one-rule:op",
      arbitrary: fc.integer({ min: 0, max: 100 }),
      defaultRuns: 20,
      maxRuns: 10,
      shrinks: 100,
      show: (value) => ({ shown: value }),
      predicate: async (value) => [
        { name: "is refused", ok: true, response },
        { name: "names the field", ok: value < 3, expected: ["a"], actual: [], response },
      ],
    });
    expect(fake.expectations.map((entry) => [entry.name, entry.ok])).toEqual([
      ["is refused", true],
      ["names the field", false],
    ]);
    expect(fake.reproduction).toMatchObject({
      counterexample: { shown: 3 },
      replay: expect.stringMatching(
        /^conform fuzz bodies --seed 1 --runs 20 --property suite\/case\/one-rule:op --path [\d:]+ --base-url https:\/\/127.0.0.1:1\/v4 --allow-writes$/,
      ),
    });
  });

  it("a falsified verdict with its response points at that exchange, with what was expected and came back", async () => {
    const fake = fakeCase(spec);
    const wrong = liveResponse({ status: 200, json: { data: [{ id: 7 }] } });
    await new PropertyRunner(fake.t, "filters").check({
      name: "answers match",
      arbitrary: fc.integer({ min: 0, max: 100 }),
      defaultRuns: 20,
      shrinks: 100,
      predicate: async (value) =>
        value < 10
          ? true
          : {
              message: `${value}: returned 7`,
              response: wrong,
              expected: { ids: [] },
              actual: { extra: ["7"] },
            },
    });
    const [failure] = fake.expectations;
    expect(failure).toMatchObject({ name: "property: answers match", ok: false });
    expect(failure?.details).toMatchObject({
      expected: { ids: [] },
      actual: { extra: ["7"] },
      message: expect.stringMatching(/^falsified after .*: 10: returned 7$/),
    });
    expect(failure?.details.response).toBe(wrong);
  });

  it("replaying one property: others are not run; it goes straight to its counterexample from the path", async () => {
    const property = (evaluated: number[]) => ({
      name: "numbers stay below 50",
      arbitrary: fc.integer({ min: 0, max: 1000 }),
      defaultRuns: 30,
      shrinks: 200,
      predicate: async (value: number) => {
        evaluated.push(value);
        return value < 50 ? true : `${value} is 50 or more`;
      },
    });
    const first = fakeCase(spec);
    const firstValues: number[] = [];
    await new PropertyRunner(first.t, "things").check(property(firstValues));
    const path = first.reproduction?.path;
    expect(path).toMatch(/^\d+(:\d+)*$/);
    expect(first.reproduction?.replay).toBe(
      `conform fuzz things --seed 1 --runs 30 --property 'suite/case/numbers stay below 50' --path ${path}`,
    );

    const replay = { suite: "suite", case: "case", property: "numbers stay below 50", path };
    const again = fakeCase(spec, undefined, { replay });
    const againValues: number[] = [];
    const runner = new PropertyRunner(again.t, "things");
    const skipped: number[] = [];
    await runner.check({ ...property(skipped), name: "another property" });
    await runner.check({ ...property(skipped), name: "a third one" });
    await runner.check(property(againValues));
    expect(skipped).toEqual([]);
    expect(again.logs[0]).toBe("properties not run: the run replays suite/case/numbers stay below 50");
    expect(again.reproduction?.counterexample).toBe(50);
    expect(again.reproduction?.path).toBe(path);
    // From the path: the counterexample first, then only its own shrinks (never the runs before it).
    expect(againValues[0]).toBe(50);
    expect(againValues.length).toBeLessThan(firstValues.length);

    // The same property in another case is not the one replayed.
    const elsewhere = fakeCase(spec, undefined, { replay, caseId: "other" });
    const none: number[] = [];
    await new PropertyRunner(elsewhere.t, "things").check(property(none));
    expect(none).toEqual([]);
    expect(elsewhere.expectations).toEqual([]);
  });

  it("a property whose every value was skipped records nothing, neither pass nor failure, and logs why", async () => {
    const fake = fakeCase(spec);
    await new PropertyRunner(fake.t, "bodies").check({
      name: "stale",
      arbitrary: fc.integer(),
      defaultRuns: 3,
      predicate: async () => {
        fc.pre(false);
        return true;
      },
    });
    expect(fake.expectations).toEqual([]);
    expect(fake.logs).toEqual([
      expect.stringMatching(/^stale: not judged: every generated value was skipped \(\d+\)$/),
    ]);
  });

  it.each([
    [0, "a"],
    [0, "b"],
    [1, "a"],
  ])("derives a stable seed per run seed and name (%i, %s)", (base, name) => {
    expect(propertySeed(base, name)).toBe(propertySeed(base, name));
    expect(propertySeed(base, name)).not.toBe(propertySeed(base + 2, name));
  });
});
