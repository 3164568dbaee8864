import type { TypedApp } from '../../core/http.ts';
import type { AppDeps } from '../../core/deps.ts';
import { requireUser } from '../../core/auth.ts';
import { adsApi } from '../../../contract/api/ads.ts';

/** Staff review of ads (/api/admin/*: ADMIN_USER or MASTER_USER, enforced by core/access.ts). */
export function registerReviewRoutes(app: TypedApp, deps: AppDeps): void {
  const review = deps.services.review;

  app.get('/api/admin/get-pending-ads', { schema: adsApi['GET /api/admin/get-pending-ads'] }, async (request) => review.pending(request.query));

  app.post('/api/admin/approve-pending-ads', { schema: adsApi['POST /api/admin/approve-pending-ads'] }, async (request) => {
    const { adIds, decision, reason, category, seen } = request.body;
    return review.decide(requireUser(request), { adIds, decision, reason, category, seen });
  });

  app.get('/api/admin/get-approved-ads', { schema: adsApi['GET /api/admin/get-approved-ads'] }, async (request) => review.approved(request.query));

  app.post('/api/admin/set-status-approved-ads', { schema: adsApi['POST /api/admin/set-status-approved-ads'] }, async (request) => {
    const status = request.body.status === 'disabled' ? 'disabled' : 'approved';
    return review.setStatus(requireUser(request), { adIds: request.body.adIds, status, seen: request.body.seen });
  });

  app.get('/api/admin/get-screening-log', { schema: adsApi['GET /api/admin/get-screening-log'] }, async (request) => review.screeningLog(request.query));
}
