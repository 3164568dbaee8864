import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';
import { DEFAULT_HEALTH_OPTIONS } from './health.service.ts';

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

describe('the failing-check e-mail to a Portuguese-speaking admin', () => {
  // The whole e-mail is in the admin's language: each check named and worded from its code and
  // params as the health page words it (it quoted the server's English between Portuguese paragraphs).
  it('words the failing check in Portuguese, not in the server’s English', async () => {
    await ctx.app.deps.db.updateTable('users').set({ locale: 'pt' }).where('id', '=', admin.id).execute();
    ctx.app.deps.services.health.options = { ...DEFAULT_HEALTH_OPTIONS, disk: { degradedBelow: 1.01, failingBelow: 1.01 } };
    const res = await ctx.app.inject({ method: 'POST', url: '/api/admin/run-health-check', headers: { cookie: admin.cookie }, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    const mail = ctx.mailer.sent.find((m) => m.to === admin.email)!;
    const name = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../src/i18n/locales/pt/admin.json'), 'utf8')).healthCheck.names.disk;
    expect(mail.subject).toBe(`[XG] Verificação de saúde com falha: ${name}`);
    const line = mail.text.split('\n').find((l) => l.startsWith(`- ${name}: `))!;
    expect(line).toMatch(/as gravações logo vão falhar/);
    expect(line).not.toMatch(/free of|writes will soon fail/);
    // The sizes written the Portuguese way too (a decimal comma: '74,6 GB livres de 252,0 GB'), not as the server's English.
    expect(line).toMatch(/ livres de (\d{1,3}\.)*\d+,\d GB \(/);
  });
});
