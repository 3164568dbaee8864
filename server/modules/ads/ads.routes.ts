import { defineRoutes } from '../../core/http.ts';
import { withMultipart } from '../../core/multipart.ts';
import { requireUser } from '../../core/auth.ts';
import { adsApi, IdempotencyHeaders } from '../../../contract/api/ads.ts';
import { idempotencyKeyOf } from '../../core/idempotency.ts';
import { EDIT_FIELDS, readAdForm } from './ads.upload.ts';
import { registerReviewRoutes } from './ads.review.routes.ts';
import type { Quote } from '../pricing/pricing.service.ts';

/** What the payer was shown, when the body says it (named fields only). */
const quoteOf = (b: { priceCents?: number; durationDays?: number }): Quote => ({ priceCents: b.priceCents, durationDays: b.durationDays });

export default defineRoutes(async (app, deps) => {
  const ads = deps.services.ads;
  const manage = deps.services.adManage;

  // No route bodyLimit: the multipart parser streams the upload and keeps its own limits (10 MB a
  // photo, 60 MB in all: readAdForm), while a route bodyLimit is also the JSON and text parsers',
  // which read and parsed up to that much before the 400 request.multipart_expected. Without one, a
  // JSON or text body past the app's 1 MB is refused 413 request.too_large (PRODUCT §11) from its
  // Content-Length, unread, or once 1 MB of it has arrived.
  await withMultipart(app, (scope) => {
    const postAd = { ...adsApi['POST /api/post-ad'], headers: IdempotencyHeaders };
    scope.post('/api/post-ad', { schema: postAd }, async (request, reply) => {
      const user = requireUser(request);
      const key = idempotencyKeyOf(request); // a malformed key is refused before the upload is read
      const { fields, photos } = await readAdForm(request);
      return reply.status(201).send({ ad: await ads.post(user, fields, photos, request.ip, key) });
    });
    scope.put('/api/ads/:id', { schema: adsApi['PUT /api/ads/:id'] }, async (request) => {
      const user = requireUser(request);
      const { fields, photos } = await readAdForm(request, EDIT_FIELDS);
      return { ad: await manage.edit(user, request.params.id, fields, photos, request.ip) };
    });
  });

  // The request headers (Idempotency-Key) are declared beside the contract's route (IDEMPOTENT_ROUTES).
  app.put('/api/renew-ad/:id', { schema: { ...adsApi['PUT /api/renew-ad/:id'], headers: IdempotencyHeaders } }, async (request) =>
    manage.renew(requireUser(request), request.params.id, request.body.walletId, quoteOf(request.body), idempotencyKeyOf(request)),
  );

  app.delete('/api/ads/:id', { schema: adsApi['DELETE /api/ads/:id'] }, async (request) => manage.remove(requireUser(request), request.params.id));

  app.get('/api/cart-ads-by-user', { schema: adsApi['GET /api/cart-ads-by-user'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return ads.cart(requireUser(request).id, request.query);
  });

  app.get('/api/all-ads-by-user', { schema: adsApi['GET /api/all-ads-by-user'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { page, pageSize, list, adId } = request.query;
    return manage.mine(requireUser(request).id, { page, pageSize, list, adId });
  });

  app.get('/api/my-ads-overview', { schema: adsApi['GET /api/my-ads-overview'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return manage.overview(requireUser(request).id);
  });

  app.delete('/api/delete-cart-ad/:id', { schema: adsApi['DELETE /api/delete-cart-ad/:id'] }, async (request) => {
    await ads.deleteCartAd(requireUser(request), request.params.id);
    return { deleted: true as const };
  });

  app.put('/api/ad-payment-in-cart/:id', { schema: adsApi['PUT /api/ad-payment-in-cart/:id'] }, async (request) =>
    ads.pay(requireUser(request), request.params.id, request.body.walletId, quoteOf(request.body)),
  );

  app.put('/api/bump-ad/:id', { schema: { ...adsApi['PUT /api/bump-ad/:id'], headers: IdempotencyHeaders } }, async (request) =>
    ads.bump(requireUser(request), request.params.id, request.body.walletId, quoteOf(request.body), idempotencyKeyOf(request)),
  );

  app.put('/api/update-ad-online-status/:id', { schema: adsApi['PUT /api/update-ad-online-status/:id'] }, async (request) => ({
    ad: await ads.setOnline(requireUser(request), request.params.id, request.body.online),
  }));

  app.put('/api/update-ad-location/:id', { schema: adsApi['PUT /api/update-ad-location/:id'] }, async (request) => ({
    ad: await ads.move(requireUser(request), request.params.id, request.body.stateId, request.body.cityId),
  }));

  registerReviewRoutes(app, deps);
});
