/** The payments module's tables (migrations/sqlite), as Kysely sees them. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PaymentsTables {}
