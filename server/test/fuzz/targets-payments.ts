import { signBody } from '../../modules/payments/sandbox.ts';
import type { Spec } from './targets.ts';
import type { World } from './world.ts';

/** One sandbox invoice of the provider, made once per world: what the sandbox routes act on. */
const invoices = new WeakMap<World, Promise<string>>();
function providerInvoice(w: World): Promise<string> {
  let p = invoices.get(w);
  if (!p) {
    p = (async () => {
      const provider = await w.actor('provider');
      const res = await w.inject({
        method: 'POST',
        url: '/api/create-btc-payment-invoice',
        headers: { cookie: provider.cookie },
        payload: { amount: '20.00' },
      });
      if (res.statusCode !== 200) throw new Error(`fuzz: could not create an invoice: ${res.statusCode} ${res.body}`);
      return res.json().invoiceId as string;
    })();
    invoices.set(w, p);
  }
  return p;
}

/** Working requests of the payments module's routes for the fuzzer (see targets.ts). */
export const specs: Record<string, Spec> = {
  // Signed as BTCPay signs (over the bytes sent: light-my-request's JSON.stringify of the body); an
  // event type we do not use, so a working request is answered 200 and changes nothing.
  'POST /api/webhooks/btcpay': {
    actor: 'guest',
    seed: async (w) => {
      const body = {
        deliveryId: 'fz-1',
        webhookId: 'fz',
        originalDeliveryId: 'fz-1',
        isRedelivery: false,
        type: 'PayoutCreated',
        timestamp: 1,
        storeId: 'sandbox-store',
      };
      return { body, headers: { 'content-type': 'application/json', 'btcpay-sig': signBody(w.ctx.config.btcpay.webhookSecret, JSON.stringify(body)) } };
    },
  },
  'POST /api/create-btc-payment-invoice': { seed: async () => ({ body: { amount: '10.00' } }) },
  'GET /api/sandbox/invoices/:invoiceId': { actor: 'provider', seed: async (w) => ({ params: { invoiceId: await providerInvoice(w) } }) },
  'POST /api/sandbox/invoices/:invoiceId/simulate': {
    actor: 'provider',
    seed: async (w) => ({ params: { invoiceId: await providerInvoice(w) }, body: { action: 'partial' } }),
  },
};
