/**
 * The lifecycle of every resource of the loaded description that has a create and a delete, found by the
 * description alone (`resourcesOf`): create, read back, in the list and found by a filter, update kept, a child
 * under it only, delete, then gone everywhere (read, list, second delete, update: 404), a new id after it, and a
 * refused create leaving nothing. Each step is its own assertion named `<resource>: <step>`, showing the chain as
 * numbered steps; a target that keeps nothing it is given is said once per resource. Values the description does
 * not say how to get (a back-end node's address) come from `support/lifecycle-values.ts`.
 */
import { defineSuite, lifecycleResources, runLifecycle } from "../../src/index.ts";
import { lifecycleValues } from "./support/lifecycle-values.ts";

export default defineSuite({
  id: "lifecycles",
  title: "Every resource with a create and a delete lives, changes and dies as its description says",
  // `costly`: on a real target (with --allow-writes) its chains create billed instances and load balancers.
  tags: ["lifecycle", "writes", "costly"],
  cases: [
    {
      id: "each-resource",
      title:
        "Each resource's chain: create, read back, list, filter, update, children, delete, then 404 everywhere",
      run: async (t) => {
        const resources = lifecycleResources(t.spec).filter(
          (resource) =>
            t.isOperationSelected(resource.create!.operationId) &&
            t.isOperationSelected(resource.delete!.operationId),
        );
        if (resources.length === 0)
          t.skip("the description has no resource with a create and a delete the run selects");
        let through = 0;
        let first: unknown;
        for (const resource of resources) {
          try {
            if (await runLifecycle(t, resource, lifecycleValues)) through += 1;
          } catch (error) {
            // One resource's trouble (a request conform could not build, a connection cut) does not stop the
            // others; the first is raised at the end, so the case still errors with its code.
            if (t.signal.aborted) throw error;
            t.log(`${resource.name}: stopped: ${(error as Error)?.message}`);
            first ??= error;
          }
        }
        t.log(`${through} of ${resources.length} chains went through to the delete`);
        if (first) throw first;
      },
    },
  ],
});
