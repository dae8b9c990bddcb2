/**
 * The account's event feed: newest first, as the real service lists it; filterable per the spec.
 * @module
 */
import type { HandlerMap } from "../context.ts";
import { listReply } from "./shared.ts";

export const eventHandlers: HandlerMap = {
  getEvents: (context) => listReply(context, [...context.state.events].reverse()),
};
