/**
 * Trust nothing from the request: every object a route's body or query string describes refuses
 * properties it does not name. Applied to every route in one place (an onRoute hook in buildApp),
 * so a new route cannot forget it; a schema that really wants open objects says
 * `additionalProperties` itself. Without this, `POST /api/register` with `roles` and `status` in
 * its body passed validation with them (JSON Schema allows unknown properties by default).
 */
type SchemaNode = Record<string, unknown>;

export function refuseUnknownProperties(schema: unknown, seen = new Set<unknown>()): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as SchemaNode;
  if ((node.type === 'object' || node.properties) && node.additionalProperties === undefined && !node.patternProperties) {
    node.additionalProperties = false;
  }
  for (const key of ['properties', 'definitions', '$defs']) {
    const children = node[key];
    if (children && typeof children === 'object') for (const child of Object.values(children)) refuseUnknownProperties(child, seen);
  }
  for (const key of ['items', 'additionalItems', 'not', 'if', 'then', 'else']) refuseUnknownProperties(node[key], seen);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = node[key];
    if (Array.isArray(list)) for (const child of list) refuseUnknownProperties(child, seen);
  }
}
