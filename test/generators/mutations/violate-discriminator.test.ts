import { describe } from "vitest";
import { violateDiscriminator } from "../../../src/generators/mutations/violate-discriminator.ts";
import { mutationTable } from "./mutation-table.ts";

const values = ["reboot", "resize"];

describe("violate-discriminator", () => {
  mutationTable(violateDiscriminator, [
    {
      name: "a value the mapping does not list",
      schema: { type: "string", enum: values },
      current: "reboot",
      discriminatorValues: values,
      edits: ["reboot-unmapped"],
    },
    {
      name: "an absent discriminator can be sent wrong",
      schema: { type: "string", enum: values },
      present: false,
      discriminatorValues: values,
      edits: ["reboot-unmapped"],
    },
    {
      name: "nothing where the property is no discriminator",
      schema: { enum: values },
      current: "reboot",
      edits: [],
    },
    {
      name: "nothing where a mapping lists no value",
      schema: { enum: values },
      current: "reboot",
      discriminatorValues: [],
      edits: [],
    },
    {
      name: "nothing where the property takes no string",
      schema: { type: "integer", enum: [1, 2] },
      current: 1,
      discriminatorValues: values,
      edits: [],
    },
  ]);
});
