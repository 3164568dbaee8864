import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { walletsApi } from '../../../contract/api/wallets.ts';
import { backfillWelcomeGiven } from './wallets.service.ts';

export default defineRoutes((app, deps) => {
  const wallets = deps.services.wallets;

  // The mailboxes whose welcome code was redeemed before migration 0042, hashed once (then nothing is left to do).
  app.addHook('onReady', async () => {
    try {
      const n = await backfillWelcomeGiven(deps);
      if (n) deps.log.info({ accounts: n }, 'wallets: recorded the mailboxes whose welcome code was redeemed before');
    } catch (err) {
      deps.log.error({ err }, 'wallets: could not record the mailboxes whose welcome code was redeemed before; the next start tries again');
    }
  });

  app.get('/api/all-wallets-by-user', { schema: walletsApi['GET /api/all-wallets-by-user'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { wallets: await wallets.list(requireUser(request).id) };
  });

  app.post('/api/create-promo-wallet', { schema: walletsApi['POST /api/create-promo-wallet'] }, async (request) => ({
    wallet: await wallets.createPromoWallet(requireUser(request).id),
  }));

  app.post('/api/add-promo-code-to-promo-wallet', { schema: walletsApi['POST /api/add-promo-code-to-promo-wallet'] }, async (request) => ({
    wallet: await wallets.redeem(requireUser(request), request.body.code, request.ip),
  }));

  app.get(
    '/api/email-wallet-promo-code',
    {
      config: { changesState: true }, // sends an e-mail and may create a code: refused cross-site
      schema: walletsApi['GET /api/email-wallet-promo-code'],
    },
    async (request) => wallets.emailWelcomeCode(requireUser(request)),
  );
});
