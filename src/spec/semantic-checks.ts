/**
 * The checks a JSON schema cannot express and that matter to everything downstream: every internal `$ref`
 * leads somewhere, operationIds are unique, path parameters are declared (and declared ones used), and
 * security requirements name declared schemes. Each is one cheap pass.
 * @module
 * @internal
 */
import type { Problem } from "./document-schema.ts";
import { mergedParameters, templateNames } from "./parameters.ts";
import { childPointer, isObject, resolveRef } from "./pointer.ts";
import type { DocumentScan } from "./scan.ts";
import type { SpecDialect } from "./types.ts";
import { listOperations } from "./walk-operations.ts";

export function semanticProblems(document: unknown, dialect: SpecDialect, scan: DocumentScan): Problem[] {
  return [
    ...refProblems(document, scan),
    ...operationIdProblems(document),
    ...pathParameterProblems(document),
    ...securityProblems(document, dialect),
  ];
}

function refProblems(document: unknown, scan: DocumentScan): Problem[] {
  const problems: Problem[] = [];
  for (const { at, ref } of scan.refs) {
    const resolved = resolveRef(document, { $ref: ref }, at);
    if (resolved.ok || resolved.reason === "external") continue;
    problems.push({
      pointer: at,
      message:
        resolved.reason === "missing"
          ? `$ref ${JSON.stringify(ref)} does not resolve`
          : `$ref ${JSON.stringify(ref)} is part of a circular chain of $refs that never reaches a value`,
    });
  }
  return problems;
}

function operationIdProblems(document: unknown): Problem[] {
  const problems: Problem[] = [];
  const first = new Map<string, string>();
  for (const raw of listOperations(document)) {
    const id = raw.operation.operationId;
    if (typeof id !== "string") continue;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, raw.pointer);
    else {
      problems.push({
        pointer: childPointer(raw.pointer, "operationId"),
        message: `operationId ${JSON.stringify(id)} is already used at ${earlier}`,
      });
    }
  }
  return problems;
}

function pathParameterProblems(document: unknown): Problem[] {
  const problems: Problem[] = [];
  for (const raw of listOperations(document)) {
    const inTemplate = new Set(templateNames(raw.pathTemplate));
    const declared = mergedParameters(document, raw).filter((parameter) => parameter.in === "path");
    const declaredNames = new Set(declared.map((parameter) => parameter.name));
    for (const name of inTemplate) {
      if (!declaredNames.has(name)) {
        problems.push({
          pointer: raw.pointer,
          message: `path parameter \`${name}\` of ${raw.pathTemplate} is not declared`,
        });
      }
    }
    for (const parameter of declared) {
      if (!inTemplate.has(parameter.name)) {
        problems.push({
          pointer: parameter.pointer,
          message: `path parameter \`${parameter.name}\` is not in the path ${raw.pathTemplate}`,
        });
      }
    }
  }
  return problems;
}

function securityProblems(document: unknown, dialect: SpecDialect): Problem[] {
  if (!isObject(document)) return [];
  const schemes =
    dialect === "swagger-2.0"
      ? document.securityDefinitions
      : isObject(document.components)
        ? document.components.securitySchemes
        : undefined;
  const declared = new Set(isObject(schemes) ? Object.keys(schemes) : []);
  const problems: Problem[] = [];
  const check = (security: unknown, pointer: string) => {
    if (!Array.isArray(security)) return;
    security.forEach((requirement, index) => {
      if (!isObject(requirement)) return;
      for (const name of Object.keys(requirement)) {
        if (!declared.has(name)) {
          problems.push({
            pointer: childPointer(pointer, index, name),
            message: `security scheme \`${name}\` is not declared`,
          });
        }
      }
    });
  };
  check(document.security, "/security");
  for (const raw of listOperations(document))
    check(raw.operation.security, childPointer(raw.pointer, "security"));
  return problems;
}
