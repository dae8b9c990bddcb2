import { describe, expect, it } from "vitest";
import { SharedReads } from "../../src/runner/shared-reads.ts";

describe("SharedReads", () => {
  it("sends a read once: a later case gets the same answer object, and who read it", async () => {
    const reads = new SharedReads();
    let sent = 0;
    const answer = { status: 200 };
    const read = async () => {
      sent += 1;
      return answer;
    };
    const first = await reads.read("getRegions", "a/one", read);
    const second = await reads.read("getRegions", "b/two", read);
    expect([sent, first, second.value === answer, second.readBy, second.reused, reads.reusedCount]).toEqual([
      1,
      { value: answer, readBy: "a/one", reused: false },
      true,
      "a/one",
      true,
      1,
    ]);
  });

  it("cases asking at once share the read in flight", async () => {
    const reads = new SharedReads();
    let sent = 0;
    const read = async () => {
      sent += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return sent;
    };
    const both = await Promise.all([reads.read("k", "a/one", read), reads.read("k", "b/two", read)]);
    expect([sent, both.map((shared) => shared.value)]).toEqual([1, [1, 1]]);
  });

  it("keeps reads apart by key", async () => {
    const reads = new SharedReads();
    const one = await reads.read("getRegions", "a/one", async () => "regions");
    const two = await reads.read("getComputeTypes", "a/one", async () => "types");
    expect([one.value, two.value, two.reused]).toEqual(["regions", "types", false]);
  });

  it("does not keep a read that failed: the next case asks afresh", async () => {
    const reads = new SharedReads();
    await expect(
      reads.read("k", "a/one", async () => {
        throw new Error("unreachable");
      }),
    ).rejects.toThrow("unreachable");
    const again = await reads.read("k", "b/two", async () => "answer");
    expect([again.value, again.reused, again.readBy]).toEqual(["answer", false, "b/two"]);
  });
});
