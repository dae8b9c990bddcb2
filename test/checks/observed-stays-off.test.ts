import { describe } from "vitest";
import { observedStaysOff } from "../../src/checks/observed-stays-off.ts";
import { runSequenceCases, seen } from "../helpers/observed.ts";

const create = (booted: boolean | undefined) =>
  seen({
    operationId: "createComputeInstance",
    method: "POST",
    path: "/compute/instances",
    requestBody: { region: "us-east", type: "g6-standard-1", ...(booted === undefined ? {} : { booted }) },
    json: { id: 7, status: "provisioning" },
  });
const read = (status: string) =>
  seen({ operationId: "getComputeInstance", path: "/compute/instances/7", json: { id: 7, status } });
const boot = () =>
  seen({ operationId: "bootComputeInstance", method: "POST", path: "/compute/instances/7/boot", json: {} });

describe("observed-stays-off", () => {
  runSequenceCases(observedStaysOff, [
    {
      name: "created off, read offline, passes",
      sequence: [create(false), read("offline")],
      outcome: { status: "passed" },
    },
    {
      name: "created off, read booting with no boot seen, fails",
      sequence: [create(false), read("booting")],
      outcome: {
        status: "failed",
        message:
          "an instance made by POST /v4/compute/instances with booted false reads booting before any boot",
        actual: "booting",
      },
    },
    {
      name: "created off and booted by the traffic: its running is not judged",
      sequence: [create(false), boot(), read("running")],
      outcome: undefined,
    },
    {
      name: "created without booted false: not its business",
      sequence: [create(undefined), read("running")],
      outcome: undefined,
    },
  ]);
});
