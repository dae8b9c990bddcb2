/**
 * The generic layer: every operation of the loaded description (the API server's) gets valid and invalid requests
 * built from its description alone, whatever the edition: path values found in the target's answers, query
 * parameters and bodies from their schemas, then one rule broken in the body, one in a parameter, and several at
 * once. Each request carries its intent; the checks `valid-request-accepted` and `invalid-request-refused` judge
 * the answers. Reads run on any target; writes (creates, updates, actions, deletes, in that order) where writes are
 * allowed, acting on what the run made, everything made on the cleanup ledger at once; elsewhere a write gets only
 * requests that cannot change anything (unknown resources, a body of the wrong type). At most 5
 * requests per operation, and once the creates are done a read with path parameters is sent again on what they made.
 */
import {
  apiOperations,
  type CaseContext,
  defineSuite,
  exerciseOperation,
  isOwnRequestDefect,
  type OperationOutcome,
  operationKind,
  operationOrder,
  PathHarvest,
  probeWrite,
  rereadMade,
  sharedKey,
} from "../../src/index.ts";

/** The path values found so far: the suite's memo, so writes act on what reads and creates found. */
const harvestKey = sharedKey<PathHarvest>("harvest");

function harvestOf(t: CaseContext): PathHarvest {
  let harvest = t.shared.get(harvestKey);
  if (!harvest) {
    harvest = new PathHarvest();
    t.shared.set(harvestKey, harvest);
  }
  return harvest;
}

async function rereadAll(t: CaseContext, harvest: PathHarvest): Promise<void> {
  const reads = operationOrder(t.spec, apiOperations(t)).filter(
    (operation) => operationKind(t.spec, operation) === "read",
  );
  let count = 0;
  for (const operation of reads) if ((await rereadMade(t, operation, harvest)) !== undefined) count += 1;
  t.log(`${count} reads sent again on what the creates made`);
}

/** Exercises each operation in order; an error is kept for the end, so one operation does not stop the rest. */
async function exerciseAll(t: CaseContext, reads: boolean): Promise<void> {
  const operations = operationOrder(t.spec, apiOperations(t)).filter(
    (operation) => (operationKind(t.spec, operation) === "read") === reads,
  );
  if (operations.length === 0)
    t.skip(`the description has no ${reads ? "read" : "write"} operation the run selects`);
  const harvest = harvestOf(t);
  const outcomes: OperationOutcome[] = [];
  let defect: unknown;
  let reread = reads;
  for (const operation of operations) {
    // Once the creates are done, the reads meet what they made (an empty account gave them nothing to read).
    if (!reread && t.target.writesAllowed && operationKind(t.spec, operation) !== "create") {
      reread = true;
      await rereadAll(t, harvest);
    }
    try {
      outcomes.push(
        reads || t.target.writesAllowed
          ? await exerciseOperation(t, operation, harvest)
          : await probeWrite(t, operation),
      );
    } catch (error) {
      // One operation's trouble (conform's own request, a connection the target closed) does not stop the rest;
      // the first is raised at the end, so the case still errors with its code. An interruption stops at once.
      if (t.signal.aborted) throw error;
      const why = isOwnRequestDefect(error)
        ? "conform's generated request broke the description"
        : (error as Error)?.message;
      t.log(`${operation.operationId}: stopped: ${why}`);
      defect ??= error;
    }
  }
  const unrequested = outcomes.filter((outcome) => outcome.notRequested !== undefined);
  for (const outcome of unrequested) t.log(`${outcome.operationId} not requested: ${outcome.notRequested}`);
  const requested = outcomes.length - unrequested.length;
  // The answers are judged by the generic checks; the case's own verdict is that the layer reached the operations.
  t.expect(`requests went to ${requested} of ${operations.length} operations`, requested > 0, {
    expected: `> 0 of ${operations.length}`,
    actual: requested,
  });
  if (defect) throw defect;
}

export default defineSuite({
  id: "operations",
  title: "Every operation gets valid and invalid requests from its description",
  tags: ["generic"],
  cases: [
    {
      id: "reads",
      title: "Each read gets valid requests (accepted) and invalid ones (refused with 4xx)",
      run: (t) => exerciseAll(t, true),
    },
    {
      id: "writes",
      // Not tagged `writes`: without writes allowed, it sends only requests that cannot change anything.
      title:
        "Each write gets valid requests (accepted) and invalid ones (refused with 4xx) on what the run made; without writes allowed, only requests naming unknown resources or bodies of the wrong type",
      run: (t) => exerciseAll(t, false),
    },
  ],
});
