import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { FakeBtcpay } from '../../test/fakes/btcpay.ts';
import { translateError } from '../../../src/i18n/errors.ts';
import { btcpayEnv } from './payments.testkit.ts';

// An invoice BTCPay Server refuses: the provider reads one of our reasons in their page's language,
// never BTCPay's English (its words go to the log, where staff read the store's problems).

const BTCPAY_WORDS = "The amount is below the store's minimum";
let ctx: TestContext | undefined;
let fake: FakeBtcpay | undefined;
afterEach(async () => {
  await ctx?.close();
  await fake?.stop();
  ctx = fake = undefined;
});

/** An app talking to a fake BTCPay, its warnings and errors read back as text. */
async function boot(): Promise<{ c: TestContext; f: FakeBtcpay; log: () => string }> {
  let logged = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += String(chunk);
      done();
    },
  });
  fake = await new FakeBtcpay().start();
  ctx = await createTestApp({ env: btcpayEnv(fake), logger: { level: 'warn', stream } });
  fake.now = () => ctx!.clock.now().getTime();
  return { c: ctx, f: fake, log: () => logged };
}

async function topUp(c: TestContext) {
  const user = await makeUser(c, { status: 'approved' });
  return c.app.inject({ method: 'POST', url: '/api/create-btc-payment-invoice', headers: { cookie: user.cookie }, payload: { amount: 25 } });
}

type Body = { code: string; message: string; params?: Record<string, string | number> };
const LOCALES = path.resolve(import.meta.dirname, '../../../src/i18n/locales');

/** The message the client shows for an error answer on a page in `lng` (src/i18n/errors.ts). */
async function shownIn(lng: 'es' | 'pt', body: Body): Promise<string> {
  const dir = path.join(LOCALES, lng, 'errors');
  const texts = Object.assign({}, ...fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))));
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { [lng]: { errors: texts } }, interpolation: { escapeValue: false } });
  return translateError(i18n.t.bind(i18n) as never, body.code, body.params, body.message);
}

describe('an invoice BTCPay refuses', () => {
  it('for its amount (a 422 naming `amount`): the provider is told to try another amount, in their language; BTCPay’s words are logged', async () => {
    const { c, f, log } = await boot();
    f.rejectNextCreate = BTCPAY_WORDS;
    const res = await topUp(c);
    const body = res.json() as Body;
    expect({ status: res.statusCode, body }).toEqual({
      status: 400,
      body: {
        code: 'payment.server_rejected',
        message: 'The payment server refused the invoice: it does not accept this amount. Try another amount.',
        params: { rule: 'payment_amount', reason: 'it does not accept this amount. Try another amount.' },
      },
    });
    expect(await shownIn('es', body)).toBe('El servidor de pagos rechazó la factura: no acepta este monto. Prueba con otro monto.');
    expect(await shownIn('pt', body)).toBe('O servidor de pagamentos recusou a fatura: não aceita este valor. Tente outro valor.');
    const line = log()
      .split('\n')
      .find((l) => l.includes('BTCPay refused the amount'));
    expect(line && JSON.parse(line)).toMatchObject({ level: 40, btcpay: `amount: ${BTCPAY_WORDS}`, amountCents: 2500, status: 422 });
  });

  it('for anything else (a business refusal): try again later, in their language; logged as an error for staff', async () => {
    const { c, f, log } = await boot();
    f.failWith = 400; // {code: 'unavailable', message: 'fake outage'}
    const res = await topUp(c);
    const body = res.json() as Body;
    expect({ status: res.statusCode, code: body.code, params: body.params }).toEqual({
      status: 400,
      code: 'payment.server_rejected',
      params: { rule: 'payment_store', reason: 'it cannot take this payment now. Please try again later.' },
    });
    expect(body.message).not.toContain('fake outage');
    expect(await shownIn('es', body)).toBe('El servidor de pagos rechazó la factura: no puede recibir este pago ahora. Inténtalo de nuevo más tarde.');
    expect(await shownIn('pt', body)).toBe('O servidor de pagamentos recusou a fatura: não pode receber este pagamento agora. Tente novamente mais tarde.');
    const line = log()
      .split('\n')
      .find((l) => l.includes('BTCPay refused to create an invoice'));
    expect(line && JSON.parse(line)).toMatchObject({ level: 50, btcpay: 'fake outage', status: 400 });
  });
});
