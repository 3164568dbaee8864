// Filled in by the reports module.
export interface ReportsTables {}
