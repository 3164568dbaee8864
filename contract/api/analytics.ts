import { Type, type Static } from 'typebox';
import { Errors } from './common.ts';
import type { RouteContract } from './types.ts';

/** The site's languages, as a page view names them. */
export const PageLocaleSchema = Type.Union([Type.Literal('en'), Type.Literal('es'), Type.Literal('pt')]);

const Count = Type.Integer();

/** Page views since `days` ago: the total, per UTC day (YYYY-MM-DD), the most viewed paths and ads, per language. */
export const PageViewSummarySchema = Type.Object({
  days: Type.Integer(),
  /** The server's UTC day (YYYY-MM-DD) the `days` end on: the screen draws these days, whatever the browser's clock says. */
  today: Type.String(),
  total: Count,
  byDay: Type.Array(Type.Object({ day: Type.String(), count: Count })),
  topPaths: Type.Array(Type.Object({ path: Type.String(), count: Count })),
  /** The most viewed ad pages (/ad/:id in any language), with the ad's title (null when it no longer exists). */
  topAds: Type.Array(Type.Object({ adId: Type.String(), title: Type.Union([Type.String(), Type.Null()]), count: Count })),
  byLocale: Type.Array(Type.Object({ locale: PageLocaleSchema, count: Count })),
});

export type PageLocale = Static<typeof PageLocaleSchema>;
export type PageViewSummary = Static<typeof PageViewSummarySchema>;

/** The analytics module's routes: "METHOD /path" → the schemas of its request and answers. */
export const analyticsApi = {
  // The site's own page-view store (no third-party tracker).
  'POST /api/analytics/pageview': {
    body: Type.Object(
      {
        path: Type.String({ minLength: 1, maxLength: 2000 }),
        locale: PageLocaleSchema,
        referrer: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
      },
      { additionalProperties: false },
    ),
    response: { 204: Type.Null(), ...Errors },
  },
  'GET /api/admin/get-page-views': {
    querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })) }),
    response: { 200: PageViewSummarySchema, ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
