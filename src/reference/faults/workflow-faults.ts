/** Faults of the workflows (load balancers, profiles, nodes, instances, HTTPS) area: one file each, listed here. */
import { balancerForwardsToDownNodes } from "./balancer-forwards-to-down-nodes.ts";
import { balancerStartsWithProfile } from "./balancer-starts-with-profile.ts";
import { balancerWrongPort } from "./balancer-wrong-port.ts";
import { blankSubjectAccepted } from "./blank-subject-accepted.ts";
import { deprecatedAliasAnswers200 } from "./deprecated-alias-answers-200.ts";
import { duplicateNodeLabelAccepted } from "./duplicate-node-label-accepted.ts";
import { httpsKeepsOldCertificate } from "./https-keeps-old-certificate.ts";
import { nodeOtherRegionAccepted } from "./node-other-region-accepted.ts";
import { nodeUpWithoutListener } from "./node-up-without-listener.ts";
import { nodesNeverUp } from "./nodes-never-up.ts";
import { nodesStatusSwapped } from "./nodes-status-swapped.ts";
import { portNeverListens } from "./port-never-listens.ts";
import { portSharedByProfiles } from "./port-shared-by-profiles.ts";
import { profileProtocolKept } from "./profile-protocol-kept.ts";
import { rootPassEchoed } from "./root-pass-echoed.ts";
import { sslKeyEchoed } from "./ssl-key-echoed.ts";
import type { Fault } from "./types.ts";
import { unbootedInstanceBoots } from "./unbooted-instance-boots.ts";

export const workflowFaults: readonly Fault[] = [
  balancerStartsWithProfile,
  portSharedByProfiles,
  blankSubjectAccepted,
  sslKeyEchoed,
  rootPassEchoed,
  unbootedInstanceBoots,
  duplicateNodeLabelAccepted,
  nodeOtherRegionAccepted,
  deprecatedAliasAnswers200,
  nodeUpWithoutListener,
  nodesStatusSwapped,
  nodesNeverUp,
  portNeverListens,
  balancerWrongPort,
  balancerForwardsToDownNodes,
  httpsKeepsOldCertificate,
  profileProtocolKept,
];
