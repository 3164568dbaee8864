import { defineRoutes } from '../../core/http.ts';
import { listingsApi } from '../../../contract/api/listings.ts';
import { AnswerCache } from './listings.answers.ts';
import { cacheBudgets } from './listings.cache.ts';

/**
 * Public reads (guests included): only publicly visible ads, newest bump first. The handlers are
 * plain functions that send, not async ones: these are the hottest routes, and a promise per
 * request measured ~1 µs of a cached answer's ~12 (a synchronous throw still reaches the error
 * handler).
 */
export default defineRoutes((app, deps) => {
  const listings = deps.services.listings;
  const now = () => deps.clock.now().getTime();
  // Every answer is kept until a change touches what it shows (listings.tags.ts) or its time is
  // up: its first ad running out, or 60 s (a change made behind the app's back, e.g. by hand).
  // Its share of CACHE_MB bounds the server's memory (24 MB by default: ~17,000 list pages of 20
  // cards kept compressed, 1.4 kB each, or ~20,000 ads of 1.2 kB).
  const { answers: budget } = cacheBudgets(deps.config.cacheMb);
  const answers = new AnswerCache({
    sync: () => listings.sync(),
    now,
    busy: () => deps.load.busy,
    ttlMs: 60_000,
    maxEntries: budget.entries,
    maxBytes: budget.bytes,
  });
  listings.register('api', answers.cache);

  app.get('/api/listings', { schema: listingsApi['GET /api/listings'] }, (request, reply) => {
    answers.send(reply, request.url, () => listings.listings(request.query));
  });

  app.get('/api/search', { schema: listingsApi['GET /api/search'] }, (request, reply) => {
    answers.send(reply, request.url, () => listings.search(request.query));
  });

  // A guest's answer is the public view, kept. A signed-in viewer may be the ad's owner or staff,
  // whose view adds ownerId and rejectionReason (PRODUCT §7): their answer is read each time, never
  // taken from the kept public one nor kept (whose the ad is shows only once its row is read).
  // Either answer says so to shared caches (Vary: Cookie): a CDN must not hand the guest's 404 for a
  // pending ad to its owner, nor the guest's copy of an ad to staff.
  app.get('/api/ads/:id', { schema: listingsApi['GET /api/ads/:id'] }, (request, reply) => {
    const { id } = request.params;
    reply.header('vary', 'cookie');
    if (!request.user) {
      answers.send(reply, `ad:${id}`, () => listings.ad(id, null));
      return;
    }
    reply.send(listings.ad(id, request.user).value); // no-store, as every answer to a signed-in user (core/auth.ts)
  });

  app.get('/api/users-ads-aggregate/us/:listingType', { schema: listingsApi['GET /api/users-ads-aggregate/us/:listingType'] }, (request, reply) => {
    answers.send(reply, request.url, () => listings.aggregate(request.params.listingType, request.query.state));
  });

  // Keyed by the type alone: a query string (none is read) must not split the cache.
  app.get(
    '/api/users-ads-aggregate/us/:listingType/states',
    { schema: listingsApi['GET /api/users-ads-aggregate/us/:listingType/states'] },
    (request, reply) => {
      answers.send(reply, `states:${request.params.listingType}`, () => listings.stateCounts(request.params.listingType));
    },
  );

  app.get('/api/home', { schema: listingsApi['GET /api/home'] }, (request, reply) => {
    answers.send(reply, '/api/home', () => listings.home());
  });

  // Anyone may report an ad (10 per hour per IP, shared with the other report forms).
  app.post('/api/report-ad/:id', { schema: listingsApi['POST /api/report-ad/:id'] }, async (request, reply) => {
    const { message, contact, urgent } = request.body;
    const report = await listings.reportAd(request.user, request.params.id, { message, contact, urgent }, request.ip);
    return reply.status(201).send({ id: report.id, createdAt: report.createdAt });
  });
});
