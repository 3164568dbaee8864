// Filled in by the marketplace modules (migration 0003).
export interface MarketTables {}
