/**
 * The reference server's seeded catalogue: the regions (`GET /regions`) and instance types (`GET /compute/types`)
 * it serves. Fixed data, no randomness, so every run and every test sees the same lists in the same order.
 *
 * Values are shaped like the real service's (facts.md: a few dozen of each): memory and disk in MB, transfer in
 * GB, network_out in Mbps, hourly prices with two decimals and monthly = hourly * 730 rounded to whole units.
 * Numbers repeat across classes (2 vCPUs, 4 GB, 10000 Mbps...) so X-Filter comparisons and `+order_by` meet ties.
 * Resolvers use documentation addresses only (RFC 5737, RFC 3849).
 * @module
 */

export interface RegionRecord {
  id: string;
  label: string;
  country: string;
  capabilities: string[];
  status: "ok" | "outage";
  resolvers: { ipv4: string; ipv6: string };
  site_type: "core" | "distributed";
}

export interface ComputeTypeRecord {
  id: string;
  label: string;
  class: "nanode" | "standard" | "dedicated" | "premium" | "gpu" | "highmem";
  disk: number;
  memory: number;
  vcpus: number;
  gpus: number;
  network_out: number;
  transfer: number;
  price: { hourly: number; monthly: number };
  successor: string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Regions
// ---------------------------------------------------------------------------------------------------------------

/** Capability sets, from the largest sites down to distributed (edge) sites, which have no load balancers. */
const capabilitySets = {
  full: [
    "Linodes",
    "NodeBalancers",
    "Block Storage",
    "Object Storage",
    "GPU Linodes",
    "Kubernetes",
    "Cloud Firewall",
    "Vlans",
    "VPCs",
    "Managed Databases",
    "Metadata",
    "Premium Plans",
  ],
  large: [
    "Linodes",
    "NodeBalancers",
    "Block Storage",
    "Object Storage",
    "Kubernetes",
    "Cloud Firewall",
    "Vlans",
    "VPCs",
    "Managed Databases",
    "Metadata",
    "Premium Plans",
  ],
  basic: ["Linodes", "NodeBalancers", "Block Storage", "Kubernetes", "Cloud Firewall", "Vlans", "Metadata"],
  edge: ["Linodes", "Cloud Firewall", "Vlans", "VPCs", "Metadata"],
} as const;

type RegionRow = readonly [
  id: string,
  label: string,
  country: string,
  capabilities: keyof typeof capabilitySets,
  status?: RegionRecord["status"],
];

const regionRows: readonly RegionRow[] = [
  ["us-east", "Newark, NJ", "us", "full"],
  ["us-central", "Dallas, TX", "us", "large"],
  ["us-west", "Fremont, CA", "us", "basic"],
  ["us-southeast", "Atlanta, GA", "us", "full"],
  ["us-ord", "Chicago, IL", "us", "full"],
  ["us-iad", "Washington, DC", "us", "large"],
  ["us-sea", "Seattle, WA", "us", "full"],
  ["us-lax", "Los Angeles, CA", "us", "large"],
  ["us-mia", "Miami, FL", "us", "large", "outage"],
  ["ca-central", "Toronto, ON", "ca", "basic"],
  ["br-gru", "Sao Paulo, BR", "br", "large"],
  ["eu-west", "London, UK", "gb", "full"],
  ["gb-lon", "London 2, UK", "gb", "large"],
  ["eu-central", "Frankfurt, DE", "de", "full"],
  ["de-fra-2", "Frankfurt 2, DE", "de", "large"],
  ["fr-par", "Paris, FR", "fr", "full"],
  ["nl-ams", "Amsterdam, NL", "nl", "large"],
  ["se-sto", "Stockholm, SE", "se", "large"],
  ["it-mil", "Milan, IT", "it", "large"],
  ["es-mad", "Madrid, ES", "es", "basic"],
  ["ap-south", "Singapore, SG", "sg", "full"],
  ["sg-sin-2", "Singapore 2, SG", "sg", "large"],
  ["ap-northeast", "Tokyo, JP", "jp", "large"],
  ["jp-osa", "Osaka, JP", "jp", "large"],
  ["ap-west", "Mumbai, IN", "in", "full", "outage"],
  ["in-bom-2", "Mumbai 2, IN", "in", "large"],
  ["in-maa", "Chennai, IN", "in", "large"],
  ["id-cgk", "Jakarta, ID", "id", "basic"],
  ["ap-southeast", "Sydney, AU", "au", "large"],
  ["au-mel", "Melbourne, AU", "au", "large"],
  ["us-den-edge-1", "Denver, CO", "us", "edge"],
  ["de-ham-edge-1", "Hamburg, DE", "de", "edge"],
  ["fr-mrs-edge-1", "Marseille, FR", "fr", "edge"],
  ["za-jnb-edge-1", "Johannesburg, ZA", "za", "edge"],
];

export const regions: readonly RegionRecord[] = Object.freeze(
  regionRows.map(([id, label, country, capabilities, status = "ok"], index): RegionRecord => {
    const n = index + 1;
    return {
      id,
      label,
      country,
      capabilities: [...capabilitySets[capabilities]],
      status,
      // Two resolvers per region: 192.0.2.0/24 (TEST-NET-1) and 2001:db8::/32, numbered by position.
      resolvers: {
        ipv4: `192.0.2.${2 * n - 1},192.0.2.${2 * n}`,
        ipv6: `2001:db8:${n.toString(16)}::1,2001:db8:${n.toString(16)}::2`,
      },
      site_type: capabilities === "edge" ? "distributed" : "core",
    };
  }),
);

// ---------------------------------------------------------------------------------------------------------------
// Instance types
// ---------------------------------------------------------------------------------------------------------------

type TypeClass = ComputeTypeRecord["class"];

/** One type: memory and disk in GB here (converted to MB below), transfer in GB, network_out in Mbps. */
type TypeRow = readonly [
  id: string,
  vcpus: number,
  memoryGb: number,
  diskGb: number,
  transferGb: number,
  networkOutMbps: number,
  hourly: number,
  gpus?: number,
  successor?: string,
];

const typeTables: Record<TypeClass, readonly TypeRow[]> = {
  nanode: [
    ["g6-nanode-1", 1, 1, 25, 1000, 1000, 0.01, 0, "g7-nanode-1"],
    ["g7-nanode-1", 1, 1, 25, 1000, 1000, 0.01],
  ],
  standard: [
    ["g6-standard-1", 1, 2, 50, 2000, 2000, 0.02],
    ["g6-standard-2", 2, 4, 80, 4000, 4000, 0.04],
    ["g6-standard-4", 4, 8, 160, 5000, 5000, 0.07],
    ["g6-standard-6", 6, 16, 320, 8000, 6000, 0.14],
    ["g6-standard-8", 8, 32, 640, 16000, 7000, 0.29],
    ["g6-standard-16", 16, 64, 1280, 20000, 9000, 0.58],
    ["g6-standard-20", 20, 96, 1920, 20000, 10000, 0.86],
    ["g6-standard-24", 24, 128, 2560, 20000, 11000, 1.15],
    ["g6-standard-32", 32, 192, 3840, 20000, 12000, 1.73],
  ],
  dedicated: [
    ["g6-dedicated-2", 2, 4, 80, 4000, 4000, 0.05],
    ["g6-dedicated-4", 4, 8, 160, 5000, 5000, 0.11],
    ["g6-dedicated-8", 8, 16, 320, 6000, 6000, 0.22],
    ["g6-dedicated-16", 16, 32, 640, 7000, 7000, 0.43],
    ["g6-dedicated-32", 32, 64, 1280, 8000, 8000, 0.86],
    ["g6-dedicated-48", 48, 96, 1920, 9000, 9000, 1.3],
    ["g6-dedicated-50", 50, 128, 2560, 10000, 10000, 1.73],
    ["g6-dedicated-56", 56, 256, 5120, 11000, 11000, 3.46],
    ["g6-dedicated-64", 64, 512, 7200, 12000, 12000, 6.91],
  ],
  premium: [
    ["g7-premium-2", 2, 4, 80, 4000, 10000, 0.06],
    ["g7-premium-4", 4, 8, 160, 5000, 10000, 0.12],
    ["g7-premium-8", 8, 16, 320, 6000, 10000, 0.24],
    ["g7-premium-16", 16, 32, 640, 7000, 10000, 0.47],
    ["g7-premium-32", 32, 64, 1280, 8000, 10000, 0.94],
    ["g7-premium-48", 48, 96, 1920, 9000, 12000, 1.41],
    ["g7-premium-50", 50, 128, 2560, 10000, 14000, 1.88],
    ["g7-premium-56", 56, 256, 5120, 11000, 14000, 3.76],
    ["g7-premium-64", 64, 512, 7200, 12000, 16000, 7.52],
  ],
  gpu: [
    ["g1-gpu-rtx6000-1", 8, 32, 640, 16000, 10000, 1.5, 1],
    ["g1-gpu-rtx6000-2", 16, 64, 1280, 20000, 10000, 3, 2],
    ["g1-gpu-rtx6000-3", 20, 96, 1920, 20000, 10000, 4.5, 3],
    ["g1-gpu-rtx6000-4", 24, 128, 2560, 20000, 10000, 6, 4],
    ["g2-gpu-rtx4000a1-s", 4, 16, 500, 1000, 10000, 0.52, 1],
    ["g2-gpu-rtx4000a1-m", 8, 32, 500, 2000, 10000, 0.67, 1],
    ["g2-gpu-rtx4000a2-m", 16, 64, 1000, 4000, 10000, 1.33, 2],
  ],
  highmem: [
    ["g6-highmem-1", 2, 24, 20, 5000, 5000, 0.09, 0, "g7-highmem-1"],
    ["g6-highmem-2", 2, 48, 40, 6000, 6000, 0.18, 0, "g7-highmem-2"],
    ["g7-highmem-1", 2, 24, 20, 5000, 9000, 0.08],
    ["g7-highmem-2", 2, 48, 40, 6000, 9000, 0.16],
    ["g7-highmem-4", 4, 90, 90, 7000, 10000, 0.33],
    ["g7-highmem-8", 8, 150, 200, 8000, 11000, 0.66],
    ["g7-highmem-16", 16, 300, 340, 9000, 12000, 1.32],
  ],
};

const classLabels: Record<TypeClass, (memoryGb: number, gpus: number, id: string) => string> = {
  nanode: (gb) => `Nanode ${gb}GB`,
  standard: (gb) => `Shared ${gb}GB`,
  dedicated: (gb) => `Dedicated ${gb}GB`,
  premium: (gb) => `Premium ${gb}GB`,
  gpu: (gb, gpus, id) =>
    `Dedicated ${gb}GB + ${id.includes("rtx6000") ? "RTX6000" : "RTX4000 Ada"} GPU x${gpus}`,
  highmem: (gb) => `High Memory ${gb}GB`,
};

/** Monthly price: the hourly price over a 730-hour month, in whole currency units. */
function monthlyPrice(hourly: number): number {
  return Math.round(hourly * 730);
}

export const computeTypes: readonly ComputeTypeRecord[] = Object.freeze(
  (Object.keys(typeTables) as TypeClass[]).flatMap((cls) =>
    typeTables[cls].map(
      ([
        id,
        vcpus,
        memoryGb,
        diskGb,
        transfer,
        networkOut,
        hourly,
        gpus = 0,
        successor,
      ]): ComputeTypeRecord => ({
        id,
        label: classLabels[cls](memoryGb, gpus, id) + (successor ? " (previous generation)" : ""),
        class: cls,
        disk: diskGb * 1024,
        memory: memoryGb * 1024,
        vcpus,
        gpus,
        network_out: networkOut,
        transfer,
        price: { hourly, monthly: monthlyPrice(hourly) },
        successor: successor ?? null,
      }),
    ),
  ),
);
