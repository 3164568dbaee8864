// Dashboard paths the public pages never link to. They live apart from src/app/routes.ts, whose
// table is part of the home page's first script (90 KB gzip budget, no room to spare): this
// module is loaded with the dashboard only.

/** Edit an own ad (e-mails link to it through /admin/dashboard/my-ads?edit=<id>). */
export const EDIT_AD_ROUTE = '/admin/dashboard/edit-ad/:id';
