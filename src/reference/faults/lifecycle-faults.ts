/** Faults between calls: what a resource's lifecycle (create, read, list, update, delete) must catch. */
import { childListedUnderEveryParent } from "./child-listed-under-every-parent.ts";
import { deleteKeepsItem } from "./delete-keeps-item.ts";
import { idReusedAfterDelete } from "./id-reused-after-delete.ts";
import { listMissesNewest } from "./list-misses-newest.ts";
import { refusedCreateLeavesHalfMade } from "./refused-create-leaves-half-made.ts";
import type { Fault } from "./types.ts";
import { updateNotPersisted } from "./update-not-persisted.ts";

export const lifecycleFaults: readonly Fault[] = [
  deleteKeepsItem,
  updateNotPersisted,
  listMissesNewest,
  childListedUnderEveryParent,
  idReusedAfterDelete,
  refusedCreateLeavesHalfMade,
];
