/**
 * The spec loader's public contract: what every other module may rely on.
 * Nothing here depends on the dialect of the loaded description (Swagger 2.0, OpenAPI 3.0 or 3.1):
 * the loader normalises all three into these shapes.
 * @module
 */

export type HttpMethod = "get" | "put" | "post" | "delete" | "patch" | "head" | "options" | "trace";

export type SpecDialect = "swagger-2.0" | "openapi-3.0" | "openapi-3.1";

/** A JSON Schema object as found in the description (after dialect normalisation). */
export type JsonSchema = { readonly [key: string]: unknown } | boolean;

export interface ParameterInfo {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly schema: JsonSchema | undefined;
  readonly deprecated: boolean;
}

/** A field of a list item that the target can filter on (any `x-*-filterable: true` extension). */
export interface FilterableField {
  readonly name: string;
  /** JSON type of the field; `array` for list-valued fields (equality matches by membership). */
  readonly type: "string" | "integer" | "number" | "boolean" | "array";
  /** For `array` fields, the type of the items. */
  readonly itemType?: "string" | "integer" | "number" | "boolean";
  /** True when the schema allows null. */
  readonly nullable: boolean;
  /** The vendor extension that marked it, e.g. `x-compute-filterable`. */
  readonly extension: string;
  /**
   * A key on it is accepted but whether the list is narrowed by it is not promised (`x-*-filter-lenient: true`
   * beside the mark): a filter naming it is valid and its results are not judged.
   */
  readonly lenient?: true;
  /**
   * For a field inside an object property of the item (`entity.id`), the property names from the item down
   * (`["entity", "id"]`); `name` is them joined by dots, the key X-Filter names it by. Absent for a top-level field.
   */
  readonly path?: readonly string[];
  /**
   * Every scalar type the schema admits, when it admits more than one (`entity.id`: `integer` or `string`); `type`
   * is the first of them. Absent when the field has one type.
   */
  readonly types?: readonly ("string" | "integer" | "number" | "boolean")[];
}

export interface ResponseInfo {
  /** `"200"`, `"4XX"` or `"default"`, as written in the description. */
  readonly status: string;
  readonly description: string;
  readonly contentTypes: readonly string[];
  /** Header names declared on this response, lower-cased, with whether each is required. */
  readonly headers: readonly {
    readonly name: string;
    readonly required: boolean;
    readonly schema: JsonSchema | undefined;
  }[];
  /** True when at least one content type has a schema (a validator can be compiled). */
  readonly hasSchema: boolean;
}

export interface RequestBodyInfo {
  readonly required: boolean;
  readonly contentTypes: readonly string[];
}

export interface SecurityInfo {
  /** True when the operation can be called without a token (`security: []` or an empty requirement). */
  readonly public: boolean;
  /** Scopes that each alone grant access (any of), e.g. `["nodebalancers:read_write"]`. Empty when public. */
  readonly scopes: readonly string[];
  /** Names of the security schemes the operation accepts. */
  readonly schemes: readonly string[];
}

export interface OperationInfo {
  /** The description's operationId, or `<method> <path>` when it has none. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path template as written, e.g. `/nodebalancers/{nodeBalancerId}/configs`. */
  readonly pathTemplate: string;
  /**
   * Set when the operation is on another server than the API's (e.g. `{auth_url}` for the OAuth login server):
   * its own server URL template. Undefined for the API's operations, including those that repeat the API's
   * server (or one under it) as their own.
   */
  readonly serverUrl: string | undefined;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly deprecated: boolean;
  readonly security: SecurityInfo;
  /** Path-level and operation-level parameters merged (operation wins). */
  readonly parameters: readonly ParameterInfo[];
  /** True for a list answered in the `{data, page, pages, results}` envelope. */
  readonly paginated: boolean;
  /** Filterable fields of the list items; empty for non-lists and lists without any. */
  readonly filterableFields: readonly FilterableField[];
  readonly requestBody: RequestBodyInfo | undefined;
  readonly responses: readonly ResponseInfo[];
}

/** Where a concrete request lands in the description. */
export interface OperationMatch {
  readonly operation: OperationInfo;
  /** Path parameters, typed per their schema (integers become numbers; others stay strings). */
  readonly pathParams: Readonly<Record<string, string | number>>;
}

export interface OperationIndex {
  all(): readonly OperationInfo[];
  byId(operationId: string): OperationInfo | undefined;
  /**
   * Find the operation for a method and a concrete path relative to the server's base path
   * (e.g. `/nodebalancers/12/configs/`; a trailing slash is tolerated). Literal segments win over
   * templated ones; a path parameter whose value does not fit its type does not match.
   */
  match(method: string, path: string): OperationMatch | undefined;
}

export interface ValidationIssue {
  /** JSON pointer into the validated value, `""` for the root. */
  readonly instancePath: string;
  /** The field in the API's own error style: `label`, `configs[0].port`; `""` for the root. */
  readonly field: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export type ValidationOutcome =
  | { readonly valid: true }
  | { readonly valid: false; readonly issues: readonly ValidationIssue[] };

/** A compiled validator; it never throws. */
export type Validator = (value: unknown) => ValidationOutcome;

export interface ValidatorCache {
  /**
   * Validator for a response body: exact status first, then its range (`4XX`), then `default`.
   * `undefined` when the description gives no schema for it.
   */
  response(operationId: string, status: number, contentType?: string): Validator | undefined;
  /** Validator for a request body (readOnly properties are not required in requests). */
  request(operationId: string, contentType?: string): Validator | undefined;
  /**
   * Validator for a parameter's value, as the description types it (a query's `page_size` an integer): the caller
   * reads the text off the wire first. `undefined` when the description gives it no schema.
   */
  parameter(operationId: string, location: ParameterInfo["in"], name: string): Validator | undefined;
  /** Formats the description uses that no format validator knows (tolerated, noted once each). */
  unknownFormats(): readonly string[];
  /** Number of validators compiled so far (they compile lazily). */
  compiledCount(): number;
}

/** A server URL template (`{base_url}`) with its variables' defaults. */
export interface ServerInfo {
  readonly url: string;
  readonly variables: Readonly<Record<string, string>>;
}

export interface ApiSpec {
  /** Where it was loaded from (file path or URL). */
  readonly source: string;
  readonly dialect: SpecDialect;
  readonly title: string;
  /** `info.version`, e.g. `4.176.0`. */
  readonly version: string;
  /** Server URL templates with their variables' defaults, as declared at the document level. */
  readonly servers: readonly ServerInfo[];
  /** The bundled document: internal `$ref`s kept, external ones inlined. */
  readonly document: Readonly<Record<string, unknown>>;
  readonly operations: OperationIndex;
  readonly validators: ValidatorCache;
}

export interface LoadSpecOptions {
  /**
   * Validate the document before use (default true): against its dialect's JSON schema, and for what a schema
   * cannot say (every `$ref` resolves, operationIds are unique, path parameters and security schemes declared).
   */
  readonly validate?: boolean;
  /**
   * How strictly validators check `format`s: `full` (default) checks exactly (a date must exist), `fast` uses
   * cheaper regular expressions (ajv-formats' modes; format checks are most of a validation's cost).
   */
  readonly formats?: "full" | "fast";
  /**
   * Share compiled validators with earlier loads of the same document in this process (default false): a process
   * that runs the suites many times (`conform faults`, the bench) compiles each schema once, and its validators
   * stay optimised by the JIT. Keyed by the document's content and the options that shape a compile; bounded.
   */
  readonly shareCompiled?: boolean;
}
