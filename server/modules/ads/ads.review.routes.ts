import { Type } from 'typebox';
import type { TypedApp } from '../../core/http.ts';
import { Paging } from '../../core/http.ts';
import type { AppDeps } from '../../core/deps.ts';
import { requireUser } from '../../core/auth.ts';
import { ReviewService } from './ads.review.service.ts';
import { StaffAdSchema } from './ads.dto.ts';

const Message = Type.Object({ message: Type.String() });
const PageInfo = { total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() };
const AdIds = Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: 100 });

/** Staff review of ads (/api/admin/*: ADMIN_USER or MASTER_USER, enforced by core/access.ts). */
export function registerReviewRoutes(app: TypedApp, deps: AppDeps): void {
  const review = new ReviewService(deps);

  app.get('/api/admin/get-pending-ads', {
    schema: {
      querystring: Type.Object({ ...Paging, includeUnpaid: Type.Optional(Type.Boolean()) }),
      response: { 200: Type.Object({ pendingAds: Type.Array(StaffAdSchema), ...PageInfo }), '4xx': Message },
    },
  }, async (request) => review.pending(request.query));

  app.post('/api/admin/approve-pending-ads', {
    schema: {
      body: Type.Object({
        adIds: AdIds,
        decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
        reason: Type.Optional(Type.String({ maxLength: 1000 })),
      }),
      response: { 200: Type.Object({ updated: Type.Integer() }), '4xx': Message },
    },
  }, async (request) => {
    const { adIds, decision, reason } = request.body;
    return review.decide(requireUser(request), { adIds, decision, reason });
  });

  app.get('/api/admin/get-approved-ads', {
    schema: {
      querystring: Type.Object({
        ...Paging,
        status: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('disabled'), Type.Literal('expired')])),
      }),
      response: { 200: Type.Object({ approvedAds: Type.Array(StaffAdSchema), ...PageInfo }), '4xx': Message },
    },
  }, async (request) => review.approved(request.query));

  app.post('/api/admin/set-status-approved-ads', {
    schema: {
      body: Type.Object({ adIds: AdIds, status: Type.Union([Type.Literal('approved'), Type.Literal('disabled'), Type.Literal('enabled')]) }),
      response: { 200: Type.Object({ updated: Type.Integer() }), '4xx': Message },
    },
  }, async (request) => {
    const status = request.body.status === 'disabled' ? 'disabled' : 'approved';
    return review.setStatus(requireUser(request), { adIds: request.body.adIds, status });
  });

  app.get('/api/admin/get-screening-log', {
    schema: {
      querystring: Type.Object(Paging),
      response: {
        200: Type.Object({
          entries: Type.Array(Type.Object({
            id: Type.Integer(), userId: Type.Union([Type.String(), Type.Null()]), userEmail: Type.Union([Type.String(), Type.Null()]),
            field: Type.String(), term: Type.String(), title: Type.String(), description: Type.String(), createdAt: Type.String(),
          })),
          ...PageInfo,
        }),
        '4xx': Message,
      },
    },
  }, async (request) => review.screeningLog(request.query));
}
