/**
 * Trust nothing from the request: every object a route's body or query string describes refuses
 * properties it does not name. Applied to every route in one place (an onRoute hook in buildApp),
 * so a new route cannot forget it; a schema that really wants open objects says
 * `additionalProperties` itself. Without this, `POST /api/register` with `roles` and `status` in
 * its body passed validation with them (JSON Schema allows unknown properties by default).
 */
type SchemaNode = Record<string, unknown>;

const CHILD_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
const CHILD = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** Calls `visit` once on every schema node reachable from `schema` (its subschemas by keyword, not its data). */
function eachSchemaNode(schema: unknown, visit: (node: SchemaNode) => void, seen = new Set<unknown>()): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as SchemaNode;
  visit(node);
  for (const key of CHILD_MAPS) {
    const children = node[key];
    if (children && typeof children === 'object') for (const child of Object.values(children)) eachSchemaNode(child, visit, seen);
  }
  for (const key of CHILD) eachSchemaNode(node[key], visit, seen);
  for (const key of CHILD_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const child of list) eachSchemaNode(child, visit, seen);
  }
}

export function refuseUnknownProperties(schema: unknown): void {
  eachSchemaNode(schema, (node) => {
    if ((node.type === 'object' || node.properties) && node.additionalProperties === undefined && !node.patternProperties) {
      node.additionalProperties = false;
    }
  });
}

/**
 * Ajv coerces the query string "Infinity" (and "1e400") to Infinity and then skips minimum and
 * maximum for a non-finite number, so `page=Infinity` passed `{ type: 'integer', maximum: 10000 }`
 * and reached SQL as OFFSET Infinity (a 500). Every number in a query string or path gets the
 * `finite` keyword below (a body is parsed by JSON.parse, whose 1e400 ajv's plain type check
 * already refuses).
 */
export function requireFiniteNumbers(schema: unknown): void {
  eachSchemaNode(schema, (node) => {
    if (node.type === 'integer' || node.type === 'number') node.finite = true;
  });
}

interface AjvLike {
  addKeyword(def: {
    keyword: string;
    schemaType: string;
    errors: boolean;
    validate: ((schema: boolean, data: unknown) => boolean) & { errors?: unknown };
  }): unknown;
}

/**
 * The ajv plugin that defines `finite` (registered through Fastify's `ajv.plugins`). It names no
 * data type on purpose: ajv guards the keywords of type 'number' with isFinite, so such a keyword
 * would never see Infinity.
 */
export function finiteKeyword(ajv: AjvLike): AjvLike {
  const validate = Object.assign(
    (enabled: boolean, data: unknown) => {
      if (!enabled || typeof data !== 'number' || Number.isFinite(data)) return true;
      validate.errors = [{ keyword: 'finite', message: 'must be a finite number', params: {} }];
      return false;
    },
    { errors: undefined as unknown },
  );
  ajv.addKeyword({ keyword: 'finite', schemaType: 'boolean', errors: true, validate });
  return ajv;
}
