/**
 * Issue 32's measure "no function over 80 lines in src/, data tables excepted", kept true as code lands.
 *
 * The TypeScript compiler (its native API, `typescript/unstable/sync`) parses every file of src/, and every
 * function is measured: declarations, methods, constructors, accessors, function expressions and arrow functions.
 * Its length is its lines from its first token to its last, nested functions included (a closure that holds a
 * long one is long too).
 *
 * A data table is excepted. Precisely: a line of a function's body is a data line when it lies inside an object
 * or array literal and not inside a function nested in that literal (an object of handlers is code, not data);
 * a function is a data table when at least 80% of its lines are data lines.
 *
 * The compiler's API is marked unstable: a TypeScript upgrade that changes it fails this file at load, never lets
 * it pass unmeasured (the first test also checks that the files of src/ were found).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import type { FunctionLikeDeclaration, Node, SourceFile } from "typescript/unstable/ast";
import * as is from "typescript/unstable/ast/is";
import { API } from "typescript/unstable/sync";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const maxLines = 80;
const dataShare = 0.8;

/**
 * Known offenders in areas other developers are changing right now, as `file function`: they split their own.
 * The list only shrinks: an entry no longer over 80 lines fails the test until it is removed from here.
 */
const knownOffenders: readonly string[] = [
  // None today. An entry reads "src/<file>.ts <function>", e.g. "src/reporters/console.ts createConsoleReporter",
  // with a comment naming who is splitting it.
];

interface FunctionLength {
  /** `src/...` with forward slashes. */
  readonly file: string;
  readonly name: string;
  /** 1-based line of its first token. */
  readonly line: number;
  readonly lines: number;
}

const lineOf = (source: SourceFile, position: number) => source.getLineAndCharacterOfPosition(position).line;

/** The name a reader finds the function by: its own, its variable's or property's, `Class.method`, or the call it is passed to. */
function nameOf(fn: FunctionLikeDeclaration, source: SourceFile): string {
  const owner = fn.parent;
  const className = is.isClassLikeDeclaration(owner) ? `${owner.name?.getText(source) ?? "<class>"}.` : "";
  if (is.isConstructorDeclaration(fn)) return `${className}constructor`;
  if (!is.isArrowFunction(fn) && fn.name !== undefined) return `${className}${fn.name.getText(source)}`;
  if (is.isVariableDeclaration(owner) || is.isPropertyAssignment(owner) || is.isPropertyDeclaration(owner))
    return owner.name.getText(source);
  if (is.isCallExpression(owner)) return `<argument of ${owner.expression.getText(source)}>`;
  return "<anonymous>";
}

/**
 * The 0-based lines of `node` that hold tokens of object or array literals outside functions nested in them: a
 * literal marks the lines of its brackets, a leaf in it (a key, a value, a multi-line string) every line it spans.
 */
function dataLines(node: Node, source: SourceFile, inLiteral: boolean, lines: Set<number>): Set<number> {
  if (inLiteral && is.isFunctionLikeDeclaration(node)) return lines;
  const first = lineOf(source, node.getStart(source));
  const last = lineOf(source, node.end);
  const isLiteral = is.isObjectLiteralExpression(node) || is.isArrayLiteralExpression(node);
  if (isLiteral) lines.add(first).add(last);
  let children = 0;
  node.forEachChild((child) => {
    children += 1;
    dataLines(child, source, inLiteral || isLiteral, lines);
  });
  if (inLiteral && children === 0) for (let line = first; line <= last; line += 1) lines.add(line);
  return lines;
}

function isDataTable(fn: FunctionLikeDeclaration, source: SourceFile, lines: number): boolean {
  return fn.body !== undefined && dataLines(fn.body, source, false, new Set()).size >= dataShare * lines;
}

/** The functions of `source`, named by its path relative to `base`. */
function functionLengths(source: SourceFile, base: string): FunctionLength[] {
  const file = relative(base, source.fileName).split("\\").join("/");
  const found: FunctionLength[] = [];
  const visit = (node: Node) => {
    if (is.isFunctionLikeDeclaration(node) && node.body !== undefined) {
      const line = lineOf(source, node.getStart(source));
      const lines = lineOf(source, node.end) - line + 1;
      if (!isDataTable(node, source, lines))
        found.push({ file, name: nameOf(node, source), line: line + 1, lines });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/** Every function of the files under `folder` in the project of `tsconfig`. */
function measureProject(tsconfig: string, folder: string): FunctionLength[] {
  const api = new API({ cwd: dirname(tsconfig) });
  try {
    const project = api.updateSnapshot({ openProjects: [tsconfig] }).getProjects()[0];
    if (project === undefined) throw new Error(`${tsconfig} opened no project`);
    const files = project.program.getSourceFileNames().filter((name) => name.startsWith(`${folder}/`));
    return files.flatMap((name) => {
      const source = project.program.getSourceFile(name);
      if (source === undefined) throw new Error(`no source file for ${name}`);
      return functionLengths(source, dirname(tsconfig));
    });
  } finally {
    api.close();
  }
}

const describeLength = (fn: FunctionLength) => `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`;
const keyOf = (fn: FunctionLength) => `${fn.file} ${fn.name}`;

describe("function length (issue 32: no function over 80 lines in src/, data tables excepted)", () => {
  const measured = measureProject(resolve(root, "tsconfig.json"), resolve(root, "src"));
  const offenders = measured.filter((fn) => fn.lines > maxLines);

  it("measures the functions of every file of src/", () => {
    expect(new Set(measured.map((fn) => fn.file)).size).toBeGreaterThan(200);
    expect(measured.length).toBeGreaterThan(1000);
  });

  it("no function over 80 lines but the known offenders of areas being changed", () => {
    const unlisted = offenders.filter((fn) => !knownOffenders.includes(keyOf(fn)));
    expect(unlisted.map(describeLength)).toEqual([]);
  });

  it("every known offender is still over 80 lines (the list only shrinks: remove the ones split)", () => {
    const split = knownOffenders.filter((key) => !offenders.some((fn) => keyOf(fn) === key));
    expect(split).toEqual([]);
  });
});

/** A function named `name` of `lines` lines whose body is `body(lines - 2)` (its lines between the braces). */
const functionOf = (name: string, lines: number, body: (inner: number) => string[]) =>
  [`export function ${name}() {`, ...body(lines - 2), "}"].join("\n");
const statements = (inner: number) => Array.from({ length: inner }, (_, index) => `  console.log(${index});`);
const table = (inner: number) => [
  "  return {",
  ...Array.from({ length: inner - 2 }, (_, index) => `    key${index}: [${index}, "${index}"],`),
  "  };",
];
const handlers = (inner: number) => [
  "  return {",
  ...Array.from({ length: (inner - 2) / 2 }, (_, index) => [
    `    on${index}: () =>`,
    `      console.log(${index}),`,
  ]).flat(),
  "  };",
];

describe("the measure itself", () => {
  const cases = [
    { name: "statements80", lines: 80, body: statements, offends: false },
    { name: "statements81", lines: 81, body: statements, offends: true },
    { name: "dataTable200", lines: 200, body: table, offends: false },
    { name: "handlerObject100", lines: 100, body: handlers, offends: true },
  ];
  it("counts a function's lines from its first token to its last; an object of functions is code, not a data table", () => {
    // The real path: the compiler names files by it (a temp directory may be a symbolic link, as on macOS).
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "conform-function-length-")));
    let measured: FunctionLength[];
    try {
      writeFileSync(
        join(folder, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { types: [] }, include: ["*.ts"] }),
      );
      for (const { name, lines, body } of cases)
        writeFileSync(join(folder, `${name}.ts`), functionOf(name, lines, body));
      measured = measureProject(join(folder, "tsconfig.json"), folder);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(measured.filter((fn) => fn.name.startsWith("statements")).map(describeLength)).toEqual([
      "statements80.ts:1 statements80 (80 lines)",
      "statements81.ts:1 statements81 (81 lines)",
    ]);
    const over = measured.filter((fn) => fn.lines > maxLines).map((fn) => fn.name);
    expect(over.sort()).toEqual(
      cases
        .filter((c) => c.offends)
        .map((c) => c.name)
        .sort(),
    );
  });
});
