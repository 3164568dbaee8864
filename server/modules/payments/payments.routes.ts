import type { FastifyRequest } from 'fastify';
import { defineRoutes, requestLocale } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { paymentsApi } from '../../../contract/api/payments.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * A request from the server's own machine: a loopback peer, and no proxy in between (a reverse
 * proxy on the same host would make every visitor look local; it says so in these headers). With
 * TRUST_PROXY set the operator has said a proxy relays visitors, and one may add none of those
 * headers (nginx's plain proxy_pass): no request counts as local then (staff still simulate).
 */
export function fromLoopback(request: FastifyRequest, trustProxy: string | false): boolean {
  if (trustProxy !== false) return false;
  const h = request.headers;
  if (h['x-forwarded-for'] !== undefined || h.forwarded !== undefined || h['x-real-ip'] !== undefined) return false;
  return LOOPBACK.has(request.raw.socket?.remoteAddress ?? '');
}

export default defineRoutes((app, deps) => {
  const payments = deps.services.payments;

  app.post('/api/create-btc-payment-invoice', { schema: paymentsApi['POST /api/create-btc-payment-invoice'] }, async (request) =>
    payments.createInvoice(requireUser(request), { amount: request.body.amount, locale: requestLocale(request) }),
  );

  // BTCPay's webhook: the signature is over the exact bytes, so this scope keeps the body as a Buffer.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    scope.post('/api/webhooks/btcpay', { schema: paymentsApi['POST /api/webhooks/btcpay'], config: { allowCrossSite: true } }, async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const sig = request.headers['btcpay-sig'];
      await payments.receiveWebhook(raw, Array.isArray(sig) ? sig[0] : sig);
      return { received: true as const };
    });
  });

  app.get('/api/payment-provider', { schema: paymentsApi['GET /api/payment-provider'] }, async () => ({ mode: payments.mode }));

  app.get('/api/my-invoices', { schema: paymentsApi['GET /api/my-invoices'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return payments.listMine(requireUser(request).id, request.query);
  });

  app.get('/api/wallet-transactions', { schema: paymentsApi['GET /api/wallet-transactions'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return payments.transactions(requireUser(request), request.query);
  });

  app.get('/api/sandbox/invoices/:invoiceId', { schema: paymentsApi['GET /api/sandbox/invoices/:invoiceId'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { invoice: await payments.sandboxInvoice(requireUser(request), request.params.invoiceId, fromLoopback(request, deps.config.trustProxy)) };
  });

  app.post('/api/sandbox/invoices/:invoiceId/simulate', { schema: paymentsApi['POST /api/sandbox/invoices/:invoiceId/simulate'] }, async (request) => ({
    invoice: await payments.simulate(requireUser(request), request.params.invoiceId, request.body.action, fromLoopback(request, deps.config.trustProxy)),
  }));

  app.get('/api/admin/get-btcpayserver-health', { schema: paymentsApi['GET /api/admin/get-btcpayserver-health'] }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return payments.health();
  });

  app.get('/api/admin/get-invoices', { schema: paymentsApi['GET /api/admin/get-invoices'] }, async (request) => payments.adminList(request.query));

  // The sandbox delivers its webhooks to this very endpoint, signed, through the whole pipeline.
  payments.sandbox?.setDeliverer(async (body, signature) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/webhooks/btcpay',
      headers: { 'content-type': 'application/json', 'btcpay-sig': signature, 'user-agent': 'BTCPayServer-Sandbox' },
      payload: body,
    });
    return res.statusCode;
  });

  // Deliveries stored before a crash (or while BTCPay was down) are processed on start.
  app.addHook('onReady', async () => {
    void payments.resumePending().catch((err: unknown) => deps.log.error({ err }, 'payments: resuming stored deliveries failed'));
  });
  app.addHook('onClose', async () => {
    payments.sandbox?.close();
    payments.sandbox?.setDeliverer(null);
    await payments.drain();
  });
});
