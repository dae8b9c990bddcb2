import type { HandlerMap } from "../context.ts";

/** Placeholder until this resource lands. */
export const ipHandlers: HandlerMap = {};
