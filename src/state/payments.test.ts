import { describe, expect, it } from 'vitest';
import { currentPhase, phaseOfStatus, phaseOfUpdate } from './payments';

// How the wallet names an invoice's phase from its record (GET /api/my-invoices) and the last
// socket update about it ({type, status}: the server's re-read of the invoice after a webhook).

describe('invoice phases', () => {
  it('an Expired invoice paid late (additional status PaidLate) is paidLate, not expired', () => {
    expect(phaseOfStatus('Expired', 'PaidLate')).toBe('paidLate');
    expect(phaseOfStatus('Expired', 'PaidPartial')).toBe('expiredPartial');
    expect(phaseOfStatus('Expired', 'None')).toBe('expired');
  });

  it('an update reads its status first: with New only a payment event means partial, every other is payable (created)', () => {
    for (const type of ['INVOICEPROCESSING', 'INVOICESTATUSCHANGED', 'INVOICECREATED', 'INVOICESETTLED']) {
      expect(phaseOfUpdate({ type, status: 'New' }), type).toBe('created');
    }
    expect(phaseOfUpdate({ type: 'INVOICERECEIVEDPAYMENT', status: 'New' })).toBe('partial');
    expect(phaseOfUpdate({ type: 'INVOICEPAYMENTSETTLED', status: 'New' })).toBe('partial');
    expect(phaseOfUpdate({ type: 'INVOICERECEIVEDPAYMENT', status: 'Processing' })).toBe('received');
  });

  it('a payment event on an Expired invoice is a late payment', () => {
    expect(phaseOfUpdate({ type: 'INVOICERECEIVEDPAYMENT', status: 'Expired' })).toBe('paidLate');
    expect(phaseOfUpdate({ type: 'INVOICEPAYMENTSETTLED', status: 'Expired' })).toBe('paidLate');
    expect(phaseOfUpdate({ type: 'INVOICEPAIDAFTEREXPIRATION', status: 'Expired' })).toBe('paidLate');
    expect(phaseOfUpdate({ type: 'INVOICEEXPIREDPAIDPARTIAL', status: 'Expired' })).toBe('expiredPartial');
    expect(phaseOfUpdate({ type: 'INVOICEEXPIRED', status: 'Expired' })).toBe('expired');
  });

  it('a record asked for after the update wins over it; one from before it, only when further along', () => {
    const processing = { type: 'INVOICEPROCESSING', status: 'Processing' };
    const newRecord = { status: 'New' as const, additionalStatus: 'None' };
    expect(currentPhase(newRecord, processing, false, true)).toBe('created');
    expect(currentPhase(newRecord, processing, false, false)).toBe('received');
    // A late payment comes after the expiry; staff's Settled mark after the late payment.
    expect(currentPhase({ status: 'Expired', additionalStatus: 'None' }, { type: 'INVOICERECEIVEDPAYMENT', status: 'Expired' })).toBe('paidLate');
    expect(currentPhase({ status: 'Expired', additionalStatus: 'PaidLate' }, { type: 'INVOICESETTLED', status: 'Settled' })).toBe('settled');
  });
});
