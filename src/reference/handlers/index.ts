/**
 * Every operation's handler, keyed by the spec's operationId; `test/reference/handlers.test.ts` checks that
 * each operation of `specs/cloud-api-v4.yaml` has one and that no handler names an unknown operation.
 * @module
 */
import type { HandlerMap } from "../context.ts";
import { catalogueHandlers } from "./catalogue.ts";
import { configHandlers } from "./configs.ts";
import { eventHandlers } from "./events.ts";
import { instanceHandlers } from "./instances.ts";
import { ipHandlers } from "./ips.ts";
import { nodeBalancerHandlers } from "./nodebalancers.ts";
import { nodeHandlers } from "./nodes.ts";
import { oauthHandlers } from "./oauth.ts";
import { oauthClientHandlers } from "./oauth-clients.ts";
import { profileHandlers } from "./profile.ts";

export const handlers: HandlerMap = Object.freeze({
  ...catalogueHandlers,
  ...nodeBalancerHandlers,
  ...configHandlers,
  ...nodeHandlers,
  ...instanceHandlers,
  ...ipHandlers,
  ...eventHandlers,
  ...profileHandlers,
  ...oauthClientHandlers,
  ...oauthHandlers,
});
