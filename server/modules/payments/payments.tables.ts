import type { Generated } from 'kysely';
import type { InvoiceStatus } from '../../../contract/api/payments.ts';

/** The payments module's tables (migration 0006), as Kysely sees them. */
export interface PaymentsTables {
  invoices: {
    id: string;
    btcpay_id: string | null;
    provider: 'btcpay' | 'sandbox';
    user_id: string;
    wallet_id: string;
    amount_cents: number;
    status: InvoiceStatus | 'Creating';
    additional_status: string;
    checkout_link: string | null;
    locale: 'en' | 'es' | 'pt';
    created_at: string;
    expires_at: string;
    checked_at: string | null;
    credited_at: string | null;
    updated_at: string;
  };
  webhook_deliveries: {
    original_delivery_id: string;
    delivery_id: string;
    invoice_id: string;
    type: string;
    body: string | null;
    received_at: string;
    redeliveries: Generated<number>;
    attempts: Generated<number>;
    processed_at: string | null;
    status: string | null;
    outcome: string | null;
    last_error: string | null;
  };
  sandbox_invoices: {
    id: string;
    store_id: string;
    order_id: string;
    amount: string;
    paid_cents: Generated<number>;
    status: string;
    additional_status: string;
    metadata_json: string;
    redirect_url: string;
    created_time: number;
    expiration_time: number;
    /** When a paid ("simulate payment") invoice settles, and the payment it settles (0045); null otherwise. */
    settle_at: string | null;
    settle_cents: number | null;
  };
}
