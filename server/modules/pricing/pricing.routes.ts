import { Type } from 'typebox';
import { Paging, defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { PricingService } from './pricing.service.ts';

const ListingTypeSchema = Type.Union([Type.Literal('female_esc'), Type.Literal('female_rub'), Type.Literal('shemale_esc')]);
export const PricingSchema = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('ad'), Type.Literal('bump')]),
  listingType: ListingTypeSchema,
  priceCents: Type.Integer(),
  durationDays: Type.Union([Type.Integer(), Type.Null()]),
});
const PromoCodeSchema = Type.Object({
  id: Type.String(),
  code: Type.String(),
  amountCents: Type.Integer(),
  maxUses: Type.Integer(),
  uses: Type.Integer(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  active: Type.Boolean(),
  personal: Type.Boolean(),
  createdAt: Type.String(),
});
const Message = Type.Object({ message: Type.String() });
const PricingList = Type.Object({ pricing: Type.Array(PricingSchema) });

export default defineRoutes((app, deps) => {
  const pricing = new PricingService(deps);

  app.get('/api/get-ad-pricing', { schema: { response: { 200: PricingList } } }, async () => ({ pricing: await pricing.list('ad') }));
  app.get('/api/get-bump-pricing', { schema: { response: { 200: PricingList } } }, async () => ({ pricing: await pricing.list('bump') }));
  app.get('/api/admin/get-all-pricing', { schema: { response: { 200: PricingList, '4xx': Message } } }, async () => ({ pricing: await pricing.list() }));

  app.post('/api/admin/set-price-by-id', {
    schema: {
      body: Type.Object({
        id: Type.String({ maxLength: 40 }),
        priceCents: Type.Integer({ minimum: 0 }),
        durationDays: Type.Optional(Type.Integer({ minimum: 1 })),
      }),
      response: { 200: Type.Object({ pricing: PricingSchema }), '4xx': Message },
    },
  }, async (request) => {
    const { id, priceCents, durationDays } = request.body;
    return { pricing: await pricing.setPrice(requireUser(request), { id, priceCents, durationDays }) };
  });

  app.get('/api/admin/get-all-promo-codes', {
    schema: {
      querystring: Type.Object({
        ...Paging,
        includePersonal: Type.Optional(Type.Boolean()),
      }),
      response: {
        200: Type.Object({ promoCodes: Type.Array(PromoCodeSchema), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() }),
        '4xx': Message,
      },
    },
  }, async (request) => pricing.listPromoCodes(request.query));

  app.post('/api/admin/set-promo-code-by-id', {
    schema: {
      body: Type.Object({
        id: Type.Optional(Type.String({ maxLength: 40 })),
        code: Type.String({ maxLength: 64 }),
        amountCents: Type.Integer(),
        maxUses: Type.Integer(),
        expiresAt: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
        active: Type.Boolean(),
      }),
      response: { 200: Type.Object({ promoCode: PromoCodeSchema }), 201: Type.Object({ promoCode: PromoCodeSchema }), '4xx': Message },
    },
  }, async (request, reply) => {
    const { id, code, amountCents, maxUses, expiresAt, active } = request.body;
    const { promoCode, created } = await pricing.setPromoCode(requireUser(request), { id, code, amountCents, maxUses, expiresAt, active });
    return reply.status(created ? 201 : 200).send({ promoCode });
  });
});
