import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { pricingApi } from '../../../contract/api/pricing.ts';

export default defineRoutes((app, deps) => {
  const pricing = deps.services.pricing;

  app.get('/api/get-ad-pricing', { schema: pricingApi['GET /api/get-ad-pricing'] }, async () => ({ pricing: await pricing.list('ad') }));
  app.get('/api/get-bump-pricing', { schema: pricingApi['GET /api/get-bump-pricing'] }, async () => ({ pricing: await pricing.list('bump') }));
  app.get('/api/admin/get-all-pricing', { schema: pricingApi['GET /api/admin/get-all-pricing'] }, async () => ({ pricing: await pricing.list() }));

  app.post('/api/admin/set-price-by-id', { schema: pricingApi['POST /api/admin/set-price-by-id'] }, async (request) => {
    const { id, priceCents, durationDays, from } = request.body;
    return { pricing: await pricing.setPrice(requireUser(request), { id, priceCents, durationDays, from }) };
  });

  app.get('/api/admin/get-all-promo-codes', { schema: pricingApi['GET /api/admin/get-all-promo-codes'] }, async (request) => {
    const { page, pageSize, includePersonal } = request.query;
    return pricing.listPromoCodes({ page, pageSize, includePersonal });
  });

  app.post('/api/admin/set-promo-code-by-id', { schema: pricingApi['POST /api/admin/set-promo-code-by-id'] }, async (request, reply) => {
    const { id, code, amountCents, maxUses, expiresAt, active, from } = request.body;
    const { promoCode, created } = await pricing.setPromoCode(requireUser(request), { id, code, amountCents, maxUses, expiresAt, active, from });
    return reply.status(created ? 201 : 200).send({ promoCode });
  });
});
