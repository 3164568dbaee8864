import { Type } from 'typebox';
import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { WalletsService } from './wallets.service.ts';

export const WalletSchema = Type.Object({
  id: Type.String(),
  walletType: Type.Union([Type.Literal('USD'), Type.Literal('XG-PROMO-WALLET')]),
  amountCents: Type.Integer(),
  currency: Type.Literal('USD'),
});
const Message = Type.Object({ message: Type.String() });

export default defineRoutes((app, deps) => {
  const wallets = new WalletsService(deps);

  app.get('/api/all-wallets-by-user', {
    schema: { response: { 200: Type.Object({ wallets: Type.Array(WalletSchema) }), '4xx': Message } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { wallets: await wallets.list(requireUser(request).id) };
  });

  app.post('/api/create-promo-wallet', {
    schema: { body: Type.Object({}), response: { 200: Type.Object({ wallet: WalletSchema }), '4xx': Message } },
  }, async (request) => ({ wallet: await wallets.createPromoWallet(requireUser(request).id) }));

  app.post('/api/add-promo-code-to-promo-wallet', {
    schema: {
      body: Type.Object({ code: Type.String({ maxLength: 64 }) }),
      response: { 200: Type.Object({ wallet: WalletSchema }), '4xx': Message },
    },
  }, async (request) => ({ wallet: await wallets.redeem(requireUser(request).id, request.body.code) }));

  app.get('/api/email-wallet-promo-code', {
    config: { changesState: true }, // sends an e-mail and may create a code: refused cross-site
    schema: { response: { 200: Type.Object({ sent: Type.Boolean(), email: Type.String() }), '4xx': Message, '5xx': Message } },
  }, async (request) => wallets.emailWelcomeCode(requireUser(request)));
});
