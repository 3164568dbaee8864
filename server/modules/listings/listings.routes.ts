import { Type } from 'typebox';
import { Paging, defineRoutes } from '../../core/http.ts';
import { PublicAdSchema } from '../ads/ads.dto.ts';
import { CONTACT_MAX, MESSAGE_MAX } from '../reports/reports.service.ts';
import { ListingsService } from './listings.service.ts';
import { AdCache, PageCache } from './listings.cache.ts';

const Message = Type.Object({ message: Type.String() });
const Slug = Type.String({ maxLength: 120 });
const Page = Type.Object({ ads: Type.Array(PublicAdSchema), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() });

/**
 * Public reads (guests included): only publicly visible ads, newest bump first. The handlers are
 * plain functions that send, not async ones: these are the hottest routes, and a promise per
 * request measured ~1 µs of a cached answer's ~12 (a synchronous throw still reaches the error
 * handler).
 */
export default defineRoutes((app, deps) => {
  const listings = new ListingsService(deps);
  // Guests ask for the same pages again and again; 10 s bounds how long an ad that just expired
  // can stay on a cached page (any change of the public set drops every page at once).
  const pages = new PageCache({ clock: deps.clock, version: () => listings.reads.version(), ttlMs: 10_000, maxEntries: 2000 });
  // Popular ads are opened again and again; an entry is exact while the public set is unchanged.
  const ads = new AdCache({ clock: deps.clock, version: () => listings.reads.version(), ttlMs: 60_000, maxEntries: 10_000 });

  app.get('/api/listings', {
    schema: {
      querystring: Type.Object({ state: Type.Optional(Slug), city: Type.Optional(Slug), type: Type.Optional(Slug), ...Paging }),
      response: { 200: Page, '4xx': Message },
    },
  }, (request, reply) => {
    pages.send(reply, request.url, () => listings.listings(request.query));
  });

  app.get('/api/search', {
    schema: {
      querystring: Type.Object({ query: Type.Optional(Type.String({ maxLength: 400 })), state: Type.Optional(Slug), type: Type.Optional(Slug), ...Paging }),
      response: { 200: Page, '4xx': Message },
    },
  }, (request, reply) => {
    pages.send(reply, request.url, () => listings.search(request.query));
  });

  app.get('/api/ads/:id', {
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) }),
      response: { 200: Type.Object({ ad: PublicAdSchema }), '4xx': Message },
    },
  }, (request, reply) => {
    ads.send(reply, request.params.id, () => {
      const view = listings.adView(request.params.id, request.user);
      return { body: { ad: view.ad }, publicUntil: view.publicUntil };
    });
  });

  app.get('/api/users-ads-aggregate/us/:listingType', {
    schema: {
      params: Type.Object({ listingType: Slug }),
      response: {
        200: Type.Object({
          locations: Type.Array(Type.Object({
            stateId: Type.String(), stateSlug: Type.String(), stateName: Type.String(),
            cityId: Type.String(), citySlug: Type.String(), cityName: Type.String(), count: Type.Integer(),
          })),
        }),
        '4xx': Message,
      },
    },
  }, (request, reply) => {
    pages.send(reply, request.url, () => listings.aggregate(request.params.listingType));
  });

  app.get('/api/home', {
    schema: {
      response: {
        200: Type.Object({
          types: Type.Array(Type.Object({ listingType: Type.String(), count: Type.Integer() })),
          topStates: Type.Array(Type.Object({ stateId: Type.String(), slug: Type.String(), name: Type.String(), count: Type.Integer() })),
        }),
      },
    },
  }, (request, reply) => {
    pages.send(reply, request.url, () => listings.home());
  });

  // Anyone may report an ad (10 per hour per IP, shared with the other report forms).
  app.post('/api/report-ad/:id', {
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) }),
      body: Type.Object({
        message: Type.String({ maxLength: MESSAGE_MAX + 1000 }),
        contact: Type.Optional(Type.Union([Type.String({ maxLength: CONTACT_MAX + 100 }), Type.Null()])),
      }, { additionalProperties: false }),
      response: { 201: Type.Object({ id: Type.String(), createdAt: Type.String() }), '4xx': Message },
    },
  }, async (request, reply) => {
    const { message, contact } = request.body;
    const report = await listings.reportAd(request.params.id, { message, contact }, request.ip);
    return reply.status(201).send({ id: report.id, createdAt: report.createdAt });
  });
});
