/**
 * Instance lifecycle: the status an instance moves through after creation and after each power action, on
 * timers scaled by the server's time scale. Every status change stamps `updated` and tells the node-health
 * module (`health.instanceChanged`), so back-end nodes follow their instance.
 *
 * Creation: `provisioning`, then after the provisioning delay `offline` (booted false) or `booting` and, after
 * the boot delay, `running`. Actions (the description shows only that boot starts an instance created with
 * booted false; the rest is this server's choice, documented here):
 *
 * | status        | boot                | shutdown                   | reboot              |
 * |---------------|---------------------|----------------------------|---------------------|
 * | provisioning  | booting → running   | shutting_down → offline    | booting → running   |
 * | offline       | booting → running   | 400 already offline        | booting → running   |
 * | booting       | 400 already booting | shutting_down → offline    | rebooting → running |
 * | running       | 400 already running | shutting_down → offline    | rebooting → running |
 * | rebooting     | 400 rebooting       | shutting_down → offline    | rebooting → running |
 * | shutting_down | booting → running   | 400 already shutting down  | rebooting → running |
 *
 * Accepting boot during `provisioning` lets the description's workflow (create with booted false, attach a
 * private address, boot) run without polling; the boot takes over the provisioning timer. A new action always
 * cancels the pending timer, so the last action wins.
 *
 * Each accepted action records its event (`compute_boot`, `compute_shutdown`, `compute_reboot`; creation with
 * booted true boots too, so it records `compute_boot` when provisioning ends) as `started`, ended `finished` when
 * the instance reaches the step's end status and `failed` when a new action or a delete cancels the step.
 *
 * Timer callbacks hold only the server's services (never a request context: a create's body holds root_pass).
 * @module
 */
import type { HandlerContext } from "../context.ts";
import { type EventEntity, isoSeconds } from "../events.ts";
import type { InstanceRecord, InstanceStatus } from "../state.ts";

/** Real-time delays in ms (multiplied by the server's time scale). */
export const lifecycleDelaysMs = Object.freeze({
  provisioning: 2000,
  boot: 3000,
  shutdown: 2000,
  reboot: 3000,
});

export type PowerAction = "boot" | "shutdown" | "reboot";

/** What a lifecycle timer needs from the server; picked out of a request context so it outlives none. */
export interface LifecycleServices {
  readonly state: HandlerContext["state"];
  readonly clock: HandlerContext["clock"];
  readonly health: HandlerContext["health"];
  readonly events: HandlerContext["events"];
  readonly timeScale: number;
}

/** The instance as an event names it. */
export function instanceEntity(instance: InstanceRecord): EventEntity {
  return {
    id: instance.id,
    label: instance.label,
    type: "compute",
    url: `/v4/compute/instances/${instance.id}`,
  };
}

interface Step {
  /** The status shown while the action runs. */
  readonly via: InstanceStatus;
  readonly delay: keyof typeof lifecycleDelaysMs;
  /** The status it ends in. */
  readonly end: InstanceStatus;
}

const booting: Step = { via: "booting", delay: "boot", end: "running" };
const rebooting: Step = { via: "rebooting", delay: "reboot", end: "running" };
const shuttingDown: Step = { via: "shutting_down", delay: "shutdown", end: "offline" };

/** For each action and current status: the step it starts, or the reason it is refused. */
const transitions: Readonly<Record<PowerAction, Readonly<Record<InstanceStatus, Step | string>>>> = {
  boot: {
    provisioning: booting,
    offline: booting,
    booting: "Instance is already booting",
    running: "Instance is already running",
    rebooting: "Instance is rebooting; it will be running when the reboot finishes",
    shutting_down: booting,
  },
  shutdown: {
    provisioning: shuttingDown,
    offline: "Instance is already offline",
    booting: shuttingDown,
    running: shuttingDown,
    rebooting: shuttingDown,
    shutting_down: "Instance is already shutting down",
  },
  reboot: {
    provisioning: booting,
    offline: booting,
    booting: rebooting,
    running: rebooting,
    rebooting: rebooting,
    shutting_down: rebooting,
  },
};

export function lifecycleServices(context: HandlerContext): LifecycleServices {
  const { state, clock, health, events, timeScale } = context;
  return { state, clock, health, events, timeScale };
}

/** Sets a status, stamps `updated` and lets back-end nodes on this instance follow it. */
export function setStatus(
  services: LifecycleServices,
  instance: InstanceRecord,
  status: InstanceStatus,
): void {
  instance.status = status;
  instance.updated = isoSeconds(services.clock.now());
  services.health.instanceChanged(instance.id);
}

/** Cancels the pending step: its event, if any, has failed. */
export function cancelLifecycle(services: LifecycleServices, instance: InstanceRecord): void {
  clearTimeout(instance.timer);
  instance.timer = undefined;
  if (instance.pendingEvent) services.events.end(instance.pendingEvent, "failed");
  instance.pendingEvent = undefined;
}

/** Replaces the pending timer: `then` runs after the scaled delay if the instance still exists. */
function schedule(
  services: LifecycleServices,
  instance: InstanceRecord,
  delay: keyof typeof lifecycleDelaysMs,
  then: () => void,
): void {
  cancelLifecycle(services, instance);
  const timer = setTimeout(() => {
    if (instance.timer !== timer) return;
    instance.timer = undefined;
    if (services.state.instances.get(instance.id) === instance) then();
  }, lifecycleDelaysMs[delay] * services.timeScale);
  timer.unref();
  instance.timer = timer;
}

/** Runs a step of `action`, its event `started` now and `finished` when the instance reaches the step's end. */
function run(services: LifecycleServices, instance: InstanceRecord, step: Step, action: PowerAction): void {
  setStatus(services, instance, step.via);
  schedule(services, instance, step.delay, () => {
    const event = instance.pendingEvent;
    instance.pendingEvent = undefined;
    setStatus(services, instance, step.end);
    if (event) services.events.end(event, "finished");
  });
  instance.pendingEvent = services.events.record(`compute_${action}`, instanceEntity(instance), "started");
}

/** Starts a new instance's lifecycle: provisioning, then offline or booting → running. */
export function startProvisioning(
  services: LifecycleServices,
  instance: InstanceRecord,
  booted: boolean,
): void {
  setStatus(services, instance, "provisioning");
  schedule(services, instance, "provisioning", () => {
    if (booted) run(services, instance, booting, "boot");
    else setStatus(services, instance, "offline");
  });
}

/** Applies a power action; answers the refusal reason when the current status does not allow it. */
export function applyPowerAction(
  services: LifecycleServices,
  instance: InstanceRecord,
  action: PowerAction,
): string | undefined {
  const step = transitions[action][instance.status];
  if (typeof step === "string") return step;
  run(services, instance, step, action);
  return undefined;
}
