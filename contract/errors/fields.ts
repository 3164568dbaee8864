/**
 * The catalogue key of the label of a field an error names in `params.field`. A schema refusal
 * names the value by its path in the body, query or path (server/app.ts: `adIds.0`,
 * `seen.0.updatedAt`, `text.en`); labels are kept by a field's own name, not by path, so every
 * path a schema allows has one: an array's item takes its array's label (`adIds.0` →
 * `field.adIds`, "ads", rather than one entry per index) and a nested value the label of its own
 * name (`text.en` → `field.en`, "English text"; `seen.0.id` → `field.id`).
 *
 * Its own module, not index.ts: the client imports it eagerly, and the catalogue is loaded lazily.
 */
export function fieldLabelKey(field: string): string {
  const names = field.split('.').filter((name) => name !== '' && !/^\d+$/.test(name));
  return `field.${names.at(-1) ?? field}`;
}
