// Filled in by the locations module (migration 0002).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LocationsTables {}
