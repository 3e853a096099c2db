/**
 * Helpers for the documentation tests: the API operations derived from the app's own routes,
 * and validation of real responses against the served OpenAPI document (JSON Schema 2020-12
 * through Ajv, reading the schemas from the document itself, not from the TypeBox sources).
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { testApp } from "../http/helpers.ts";

type JsonObject = Record<string, unknown>;
export interface Document {
  openapi: string;
  info: JsonObject;
  paths: Record<string, Record<string, JsonObject>>;
  components: JsonObject;
  [key: string]: unknown;
}

export const DOCUMENT_ID = "https://network-tools.invalid/openapi.json";
const API_PREFIX = "/v1/";
const API_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * `METHOD /path` of every API operation the app routes: every route under `/v1/` (spec part 9:
 * all operations are under that prefix). Docs, web page and assets are not operations.
 */
export function apiOperations(): string[] {
  const { app } = testApp();
  const operations = new Set<string>();
  for (const route of app.routes) {
    if (!route.path.startsWith(API_PREFIX) || !API_METHODS.has(route.method)) continue;
    operations.add(`${route.method} ${route.path}`);
  }
  return [...operations].sort();
}

/** JSON Pointer of a location in the document (RFC 6901 escaping). */
export function pointer(...parts: string[]): string {
  return `#/${parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
}

/** Follows a local `$ref` (one level is all the document uses outside schemas). */
export function resolve(document: Document, value: unknown): JsonObject {
  const object = value as JsonObject;
  const ref = object?.$ref;
  if (typeof ref !== "string") return object;
  let target: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    target = (target as JsonObject)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return target as JsonObject;
}

/**
 * A strict Ajv 2020-12 instance holding the whole document, so that any schema in it can be
 * compiled by pointer and its `#/components/...` references resolve inside the document.
 */
export function documentValidator(document: Document) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // The document's top-level members are not schema keywords; declared so strict mode accepts the root.
  ajv.addVocabulary(Object.keys(document).filter((key) => !key.startsWith("$")));
  ajv.addSchema(document, DOCUMENT_ID);
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return {
    ajv,
    /** Validates `value` against the schema at `at` (a pointer into the document). */
    check(at: string, value: unknown): { valid: boolean; errors: string } {
      let validate = cache.get(at);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: `${DOCUMENT_ID}${at}` });
        cache.set(at, validate);
      }
      const valid = validate(value) === true; // no async schemas in the document
      return { valid, errors: valid ? "" : ajv.errorsText(validate.errors) };
    },
  };
}

export type DocumentValidator = ReturnType<typeof documentValidator>;

/** What a response is checked against: the operation's documented response for its status. */
export interface Checked {
  status: number;
  mediaType: string;
  body: unknown;
}

/**
 * Checks one real response against the document: its status is documented for the operation
 * at `path` (405 and 404 included), its media type is documented for that status, its body
 * validates against that schema, and every required documented header is present and valid.
 * Returns what it read so callers can compare further.
 */
export async function checkResponse(
  document: Document,
  validator: DocumentValidator,
  method: string,
  path: string,
  response: Response,
): Promise<Checked> {
  const status = response.status;
  const item = document.paths[path];
  let responseObject: JsonObject | undefined;
  let where: string[];
  if (item === undefined) {
    if (status !== 404) throw new Error(`${method} ${path}: ${status} for a path the document does not have`);
    where = ["components", "responses", "NotFound"];
    responseObject = resolve(document, (document.components.responses as JsonObject).NotFound);
  } else {
    const verb = method.toLowerCase();
    // A 405 is documented on the operations the path does have.
    const operationMethod = item[verb] === undefined && status === 405 ? Object.keys(item)[0] : verb;
    if (operationMethod === undefined || item[operationMethod] === undefined) {
      throw new Error(`${method} ${path}: no documented operation answers ${status}`);
    }
    where = ["paths", path, operationMethod, "responses", String(status)];
    const responses = item[operationMethod].responses as JsonObject;
    responseObject =
      responses[String(status)] === undefined ? undefined : resolve(document, responses[String(status)]);
  }
  if (responseObject === undefined) throw new Error(`${method} ${path}: status ${status} is not documented`);

  const contentType = response.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const content = responseObject.content as Record<string, JsonObject> | undefined;
  if (content?.[mediaType] === undefined) {
    throw new Error(
      `${method} ${path} ${status}: media type ${JSON.stringify(contentType)} is not documented`,
    );
  }
  const text = await response.text();
  const body: unknown = mediaType === "application/json" ? JSON.parse(text) : text;
  const result = validator.check(pointer(...where, "content", mediaType, "schema"), body);
  if (!result.valid) {
    throw new Error(
      `${method} ${path} ${status}: body does not match the document: ${result.errors}\n${text}`,
    );
  }

  for (const [name, header] of Object.entries((responseObject.headers ?? {}) as JsonObject)) {
    const definition = resolve(document, header);
    const value = response.headers.get(name);
    if (value === null) {
      if (definition.required === true)
        throw new Error(`${method} ${path} ${status}: header ${name} is missing`);
      continue;
    }
    const ref = (header as JsonObject).$ref;
    const at = typeof ref === "string" ? `${ref}/schema` : pointer(...where, "headers", name, "schema");
    const headerResult = validator.check(at, value);
    if (!headerResult.valid) {
      throw new Error(
        `${method} ${path} ${status}: header ${name}: ${value} does not match: ${headerResult.errors}`,
      );
    }
  }
  return { status, mediaType, body };
}
