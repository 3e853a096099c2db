/**
 * The request schema of a run on the user's own machine (issue 30): the API's schema without the
 * size bounds a local run lifts, since the use cases enforce the larger local limits of
 * src/domain/limits.ts. Every other rule of the schema stays, so the same bad entry always gets
 * the same error. The schema is read as plain JSON Schema (TypeBox's schemas are), so this module
 * needs no schema library; the CLI checks a request against it (src/cli/run-operation.ts).
 */

/** The parts of a JSON Schema node this module reads; everything else is copied as it is. */
export interface SchemaNode {
  type?: unknown;
  items?: SchemaNode | SchemaNode[];
  properties?: Record<string, SchemaNode>;
  maxItems?: number;
  maxLength?: number;
  [keyword: string]: unknown;
}

const localSchemas = new WeakMap<object, SchemaNode>();

/**
 * `schema` without the bounds a local run lifts: `maxItems` of its arrays and `maxLength` of the
 * request's own string fields, reached through `properties` and `items` only (a union's members
 * stay whole, so a union fails as it did). Checking a million-entry list against the API's schema
 * failed on its length and then walked every entry again for the errors to filter (2 s and
 * 170 MB); this schema passes it in one walk. What it reports is what the filtered errors were,
 * since a validator reports each keyword on its own. Made once per schema.
 */
export function withLocalBounds<S extends SchemaNode>(schema: S): S {
  let local = localSchemas.get(schema);
  if (local === undefined) {
    local = liftBounds(schema, true);
    localSchemas.set(schema, local);
  }
  return local as S;
}

function liftBounds(schema: SchemaNode, isRequest: boolean): SchemaNode {
  const lifted: SchemaNode = { ...schema };
  if (schema.type === "array") {
    delete lifted.maxItems;
    if (schema.items !== undefined && !Array.isArray(schema.items))
      lifted.items = liftBounds(schema.items, false);
  }
  if (schema.type === "object" && schema.properties !== undefined) {
    const properties: Record<string, SchemaNode> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const field = isRequest && property.type === "string" ? { ...property } : liftBounds(property, false);
      if (isRequest && property.type === "string") delete field.maxLength;
      properties[name] = field;
    }
    lifted.properties = properties;
  }
  return lifted;
}
