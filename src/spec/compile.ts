/**
 * Compiles the description's schemas into validators: one ajv per validation context, created on first use,
 * holding the whole document once (`$ref`s kept), and one compile per schema pointer, cached.
 *
 * Compiling `{ $ref: "<doc>#/pointer" }` lets ajv compile each referenced schema once and share it, where
 * compiling dereferenced (inlined) schemas of a large description costs hundreds of milliseconds and a lot of
 * memory per schema (docs/contracts.md, "How we know it works").
 * @module
 * @internal
 */
import type { ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { toIssues } from "./issues.ts";
import { normalizeReachable, type ValidationContext } from "./normalize-schema.ts";
import { pointerToFragment } from "./pointer.ts";
import { rememberFormats } from "./remembered-formats.ts";
import type { SpecDialect, Validator } from "./types.ts";

/** `full` checks formats exactly (a date must exist); `fast` uses ajv-formats' cheaper regular expressions. */
export type FormatMode = "full" | "fast";

export interface SchemaCompilerOptions {
  readonly dialect: SpecDialect;
  readonly context: ValidationContext;
  /** Formats no format validator knows: accepted as they come, never a crash. */
  readonly unknownFormats: readonly string[];
  readonly formatMode: FormatMode;
}

export interface SchemaCompiler {
  /** The validator of the schema at `pointer` in the document; compiled once, then cached. */
  compile(pointer: string): Validator;
  readonly compiledCount: number;
}

/** The key under which the document is added to ajv; compiled `$ref`s start with it. */
const documentId = "https://conform.invalid/description.json";

const addFormats = addFormatsPlugin.default;

function createAjv(dialect: SpecDialect, formatMode: FormatMode): Ajv {
  const options = {
    allErrors: true,
    // Descriptions carry keywords JSON Schema does not know (x-*, discriminator ...): ignore, do not reject.
    strict: false,
    // Patterns in descriptions are often written for non-Unicode engines (`[\w\-]`), which the `u` flag rejects.
    unicodeRegExp: false,
    // The document is not a schema: it is only a place for `$ref`s to point into.
    validateSchema: false,
    addUsedSchema: false,
    logger: false,
  } as const;
  const ajv = dialect === "openapi-3.1" ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv, { mode: formatMode });
  rememberFormats(ajv);
  return ajv;
}

let known: ReadonlySet<string> | undefined;

/** Names of the formats ajv-formats validates. */
export function knownFormats(): ReadonlySet<string> {
  known ??= new Set(Object.keys(createAjv("openapi-3.1", "fast").formats));
  return known;
}

export function createSchemaCompiler(document: unknown, options: SchemaCompilerOptions): SchemaCompiler {
  const validators = new Map<string, Validator>();
  let state: { ajv: Ajv; document: unknown; visited: WeakSet<object> } | undefined;

  const init = () => {
    // A private copy: normalising it in place for this context must not touch the spec's document.
    const copy = structuredClone(document);
    const ajv = createAjv(options.dialect, options.formatMode);
    for (const format of options.unknownFormats) ajv.addFormat(format, true);
    ajv.addSchema(copy as object, documentId, undefined, false);
    state = { ajv, document: copy, visited: new WeakSet() };
    return state;
  };

  return {
    compile(pointer) {
      const cached = validators.get(pointer);
      if (cached) return cached;
      const { ajv, document: copy, visited } = state ?? init();
      let validator: Validator;
      try {
        normalizeReachable(copy, pointer, options.dialect, options.context, visited);
        validator = wrap(ajv.compile({ $ref: `${documentId}#${pointerToFragment(pointer)}` }));
      } catch (error) {
        validator = uncompilable(pointer, error);
      }
      validators.set(pointer, validator);
      return validator;
    },
    get compiledCount() {
      return validators.size;
    },
  };
}

function wrap(validate: ValidateFunction): Validator {
  return (value) => {
    try {
      if (validate(value)) return { valid: true };
      return { valid: false, issues: toIssues(validate.errors ?? [], value) };
    } catch (error) {
      return {
        valid: false,
        issues: [
          {
            instancePath: "",
            field: "",
            keyword: "exception",
            message: `validation failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
            params: {},
          },
        ],
      };
    }
  };
}

/**
 * A schema ajv cannot compile (an invalid pattern, an unknown type) makes every value fail with one issue
 * that names the schema, instead of throwing at the caller: a validator never throws.
 */
function uncompilable(pointer: string, error: unknown): Validator {
  const reason = error instanceof Error ? error.message : String(error);
  const outcome = {
    valid: false,
    issues: [
      {
        instancePath: "",
        field: "",
        keyword: "schema",
        message: `the description's schema at ${pointer} cannot be compiled: ${reason}`,
        params: { pointer },
      },
    ],
  } as const;
  return () => outcome;
}
