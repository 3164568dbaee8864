import { Type } from 'typebox';
import { defineRoutes } from '../../core/http.ts';
import { withMultipart } from '../../core/multipart.ts';
import { requireUser } from '../../core/auth.ts';
import { WalletSchema } from '../wallets/wallets.routes.ts';
import { AdsService } from './ads.service.ts';
import { OwnerAdSchema } from './ads.dto.ts';
import { readAdForm } from './ads.upload.ts';
import { registerReviewRoutes } from './ads.review.routes.ts';

const Message = Type.Object({ message: Type.String() });
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });
const WalletBody = Type.Object({ walletId: Type.String({ minLength: 1, maxLength: 40 }) });
const AdAndWallet = Type.Object({ ad: OwnerAdSchema, wallet: WalletSchema });
const OneAd = Type.Object({ ad: OwnerAdSchema });

export default defineRoutes(async (app, deps) => {
  const ads = new AdsService(deps);

  await withMultipart(app, (scope) => {
    scope.post('/api/post-ad', {
      bodyLimit: 61 * 1024 * 1024,
      schema: { consumes: ['multipart/form-data'], response: { 201: OneAd, '4xx': Message } },
    }, async (request, reply) => {
      const user = requireUser(request);
      const { fields, photos } = await readAdForm(request);
      return reply.status(201).send({ ad: await ads.post(user, fields, photos, request.ip) });
    });
  });

  app.get('/api/cart-ads-by-user', {
    schema: { response: { 200: Type.Object({ pendingAds: Type.Array(OwnerAdSchema) }), '4xx': Message } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { pendingAds: await ads.cart(requireUser(request).id) };
  });

  app.get('/api/all-ads-by-user', {
    schema: { response: { 200: Type.Object({ approvedAds: Type.Array(OwnerAdSchema), pendingAds: Type.Array(OwnerAdSchema) }), '4xx': Message } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return ads.mine(requireUser(request).id);
  });

  app.delete('/api/delete-cart-ad/:id', {
    schema: { params: IdParams, response: { 200: Type.Object({ deleted: Type.Boolean() }), '4xx': Message } },
  }, async (request) => {
    await ads.deleteCartAd(requireUser(request).id, request.params.id);
    return { deleted: true };
  });

  app.put('/api/ad-payment-in-cart/:id', {
    schema: { params: IdParams, body: WalletBody, response: { 200: AdAndWallet, '4xx': Message } },
  }, async (request) => ads.pay(requireUser(request).id, request.params.id, request.body.walletId));

  app.put('/api/bump-ad/:id', {
    schema: { params: IdParams, body: WalletBody, response: { 200: AdAndWallet, '4xx': Message } },
  }, async (request) => ads.bump(requireUser(request).id, request.params.id, request.body.walletId));

  app.put('/api/update-ad-online-status/:id', {
    schema: { params: IdParams, body: Type.Object({ online: Type.Boolean() }), response: { 200: OneAd, '4xx': Message } },
  }, async (request) => ({ ad: await ads.setOnline(requireUser(request).id, request.params.id, request.body.online) }));

  app.put('/api/update-ad-location/:id', {
    schema: {
      params: IdParams,
      body: Type.Object({ stateId: Type.String({ minLength: 1, maxLength: 40 }), cityId: Type.String({ minLength: 1, maxLength: 40 }) }),
      response: { 200: OneAd, '4xx': Message },
    },
  }, async (request) => ({ ad: await ads.move(requireUser(request).id, request.params.id, request.body.stateId, request.body.cityId) }));

  registerReviewRoutes(app, deps);
});
