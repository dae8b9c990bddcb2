/**
 * What `conform spec` prints: a loaded description summed up as text, and the problems of an invalid one.
 * Pure functions: they return text and write nothing.
 * @module
 */
import { dialectName } from "./dialect.ts";
import { type Resource, resourcesOf } from "./resources.ts";
import type { ApiSpec, FilterableField, OperationInfo } from "./types.ts";

/** A summary of a loaded description: what it is, its areas, lists and their filters, scopes, oddities. */
export function summarizeSpec(spec: ApiSpec): string {
  const operations = spec.operations.all();
  const lines: string[] = [];
  lines.push(
    `${spec.title || "(untitled)"} ${spec.version} (${dialectName(spec.dialect)}) from ${spec.source}`,
  );

  const areas = new Map<string, OperationInfo[]>();
  for (const operation of operations) {
    const area = areaOf(operation);
    // Pushed, not copied: a copy per operation made the summary quadratic in the number of operations.
    const members = areas.get(area);
    if (members) members.push(operation);
    else areas.set(area, [operation]);
  }
  lines.push(`${count(operations.length, "operation")} in ${count(areas.size, "area")}:`);
  const width = Math.max(0, ...[...areas.keys()].map((area) => area.length));
  for (const [area, members] of [...areas].sort(([a], [b]) => a.localeCompare(b))) {
    const deprecated = members.filter((operation) => operation.deprecated).length;
    const note = deprecated > 0 ? `  (${deprecated} deprecated)` : "";
    lines.push(`  ${area.padEnd(width)}  ${String(members.length).padStart(3)}${note}`);
  }

  const lists = operations.filter((operation) => operation.paginated);
  lines.push(`Paginated lists (${lists.length}):`);
  for (const operation of lists) {
    const fields = operation.filterableFields;
    const filters =
      fields.length === 0
        ? "no filterable fields"
        : `filterable: ${fields.map(describeField).join(", ")} [${[...new Set(fields.map((field) => field.extension))].join(", ")}]`;
    lines.push(`  ${label(operation)}: ${filters}`);
  }

  const resources = resourcesOf(spec);
  lines.push(`Resources (${resources.length}):`);
  for (const resource of resources) lines.push(`  ${describeResource(resources, resource)}`);

  const publicOperations = operations.filter((operation) => operation.security.public);
  lines.push(
    `Public operations (${publicOperations.length})${publicOperations.length > 0 ? ": " : ""}${publicOperations.map(label).join(", ")}`,
  );
  const scopes = [...new Set(operations.flatMap((operation) => operation.security.scopes))].sort();
  lines.push(`Scopes (${scopes.length})${scopes.length > 0 ? ": " : ""}${scopes.join(", ")}`);

  const deprecated = operations.filter((operation) => operation.deprecated);
  lines.push(
    `Deprecated operations (${deprecated.length})${deprecated.length > 0 ? ": " : ""}${deprecated.map(label).join(", ")}`,
  );

  const elsewhere = operations.filter((operation) => operation.serverUrl !== undefined);
  if (elsewhere.length > 0) {
    const apiServers = spec.servers.map((server) => server.url).join(", ") || "(none declared)";
    lines.push(
      `On another server than the API's (${elsewhere.length}): their own server is neither one of the API's (${apiServers}) nor under one, so runs never send them to --base-url (a suite that needs one sends it to --auth-url)`,
    );
    for (const operation of elsewhere) lines.push(`  ${label(operation)} on ${operation.serverUrl}`);
  }

  const unknownFormats = spec.validators.unknownFormats();
  if (unknownFormats.length > 0) {
    lines.push(
      `Unknown formats, tolerated and not checked (${unknownFormats.length}): ${unknownFormats.join(", ")}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The problems of an invalid description, one per line, with the JSON pointer of each. */
export function formatProblems(
  problems: readonly { pointer: string; message: string }[],
  limit = 50,
): string {
  const lines = problems
    .slice(0, limit)
    .map((problem) => `  at ${problem.pointer || "/"}: ${problem.message}`);
  if (problems.length > limit) lines.push(`  ... and ${problems.length - limit} more`);
  return `${lines.join("\n")}\n`;
}

/** The first literal path segment (`/compute/instances` → `compute`), else the first tag. */
function areaOf(operation: OperationInfo): string {
  const first = operation.pathTemplate.split("/").find((segment) => segment !== "");
  if (first !== undefined && !first.includes("{")) return first;
  return operation.tags[0] ?? "(root)";
}

function label(operation: OperationInfo): string {
  const name = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
  return operation.operationId === `${operation.method} ${operation.pathTemplate}`
    ? name
    : `${name} (${operation.operationId})`;
}

/**
 * One resource on one line: its path, what it offers, its actions, its parent and the parameter linking them,
 * where the create's answer holds the id.
 */
function describeResource(resources: readonly Resource[], resource: Resource): string {
  const offers = (["list", "create", "read", "update", "delete"] as const).filter((name) => resource[name]);
  const parts = [
    `${resource.path}${resource.singleton ? " (singleton)" : ""}: ${offers.join(", ") || "no operation"}`,
  ];
  if (resource.actions.length > 0)
    parts.push(`actions ${resource.actions.map((operation) => operation.operationId).join(", ")}`);
  const parent = resource.parent && resources.find((other) => other.path === resource.parent?.path);
  if (parent && resource.parent) parts.push(`under ${parent.name} by {${resource.parent.parameter}}`);
  if (resource.idField)
    parts.push(`id in the create's answer: ${resource.idField.name} (${resource.idField.from})`);
  else if (resource.create && resource.itemPath)
    parts.push("the create's answer names no id field (the Location header, else id, is read)");
  return parts.join("; ");
}

function describeField(field: FilterableField): string {
  const type =
    field.type === "array"
      ? `array of ${field.itemType ?? "any"}`
      : (field.types ?? [field.type]).join(" or ");
  return `${field.name} (${type}${field.nullable ? ", nullable" : ""})`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
