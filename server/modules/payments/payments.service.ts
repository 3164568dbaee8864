import type { AppDeps } from '../../core/deps.ts';
import type { PaymentServerHealth } from '../../../contract/api/payments.ts';

export class PaymentsService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /** The payment server's health (BTCPay's /api/v1/health and server info, or the sandbox). */
  async health(): Promise<PaymentServerHealth> {
    const btcpay = this.deps.config.btcpay.url !== null;
    return {
      mode: btcpay ? 'btcpay' : 'sandbox',
      reachable: !btcpay,
      synchronized: !btcpay,
      version: null,
      storeId: this.deps.config.btcpay.storeId,
      webhookRegistered: !btcpay,
      lastWebhookAt: null,
      openInvoices: 0,
      checkedAt: this.deps.clock.now().toISOString(),
      message: btcpay ? 'not checked yet' : 'sandbox',
    };
  }
}
