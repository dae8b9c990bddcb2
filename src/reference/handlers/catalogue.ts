/**
 * The public catalogue: instance types and regions (no token needed; rate-limited by client address).
 * @module
 */
import type { HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import { ok } from "../http/reply.ts";
import { listReply, stringParam } from "./shared.ts";

export const catalogueHandlers: HandlerMap = {
  getComputeTypes: (context) => listReply(context, [...context.state.types.values()]),
  getComputeType: (context) => {
    const type = context.state.types.get(stringParam(context, "typeId"));
    return type ? ok(type) : notFound();
  },
  getRegions: (context) => listReply(context, [...context.state.regions.values()]),
  getRegion: (context) => {
    const region = context.state.regions.get(stringParam(context, "regionId"));
    return region ? ok(region) : notFound();
  },
};
