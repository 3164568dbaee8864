import { defineRoutes } from '../../core/http.ts';
import { listingsApi } from '../../../contract/api/listings.ts';
import { AdCache, PageCache } from './listings.cache.ts';

/**
 * Public reads (guests included): only publicly visible ads, newest bump first. The handlers are
 * plain functions that send, not async ones: these are the hottest routes, and a promise per
 * request measured ~1 µs of a cached answer's ~12 (a synchronous throw still reaches the error
 * handler).
 */
export default defineRoutes((app, deps) => {
  const listings = deps.services.listings;
  // Guests ask for the same pages again and again; 10 s bounds how long an ad that just expired
  // can stay on a cached page (any change of the public set drops every page at once).
  const pages = new PageCache({ clock: deps.clock, version: () => listings.reads.version(), ttlMs: 10_000, maxEntries: 2000 });
  // Popular ads are opened again and again; an entry is exact while the public set is unchanged.
  const ads = new AdCache({ clock: deps.clock, version: () => listings.reads.version(), ttlMs: 60_000, maxEntries: 10_000 });

  app.get('/api/listings', { schema: listingsApi['GET /api/listings'] }, (request, reply) => {
    pages.send(reply, request.url, () => listings.listings(request.query));
  });

  app.get('/api/search', { schema: listingsApi['GET /api/search'] }, (request, reply) => {
    pages.send(reply, request.url, () => listings.search(request.query));
  });

  app.get('/api/ads/:id', { schema: listingsApi['GET /api/ads/:id'] }, (request, reply) => {
    ads.send(reply, request.params.id, () => {
      const view = listings.adView(request.params.id, request.user);
      return { body: { ad: view.ad }, publicUntil: view.publicUntil };
    });
  });

  app.get('/api/users-ads-aggregate/us/:listingType', { schema: listingsApi['GET /api/users-ads-aggregate/us/:listingType'] }, (request, reply) => {
    pages.send(reply, request.url, () => listings.aggregate(request.params.listingType));
  });

  app.get('/api/home', { schema: listingsApi['GET /api/home'] }, (request, reply) => {
    pages.send(reply, request.url, () => listings.home());
  });

  // Anyone may report an ad (10 per hour per IP, shared with the other report forms).
  app.post('/api/report-ad/:id', { schema: listingsApi['POST /api/report-ad/:id'] }, async (request, reply) => {
    const { message, contact } = request.body;
    const report = await listings.reportAd(request.user, request.params.id, { message, contact }, request.ip);
    return reply.status(201).send({ id: report.id, createdAt: report.createdAt });
  });
});
