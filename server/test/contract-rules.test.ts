import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkEmail, cleanLine, cleanText } from '../../contract/rules.ts';
import { createTestApp, type TestContext } from './harness.ts';

// The validation rules of contract/rules.ts are shared by the server, which enforces them, and the
// client, which shows them before submit. Here: the text they read, and the server answering by them.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

/** Format, control and space characters that can hide inside an address. */
const HIDDEN = ['\u200b', '\u200d', '\u2060', '\u00ad', '\ufeff', '\u202e', '\u0000', '\u0085', '\u00a0', '\u2028', '\u3000', ' '];

describe('e-mail addresses', () => {
  it('refuses an address with an invisible, control or space character anywhere in it', () => {
    expect(checkEmail('lee@example.com')).toBeNull();
    expect(checkEmail('l\u00e9e@exampl\u00e9.com')).toBeNull(); // letters of any language are fine
    for (const ch of HIDDEN) {
      for (const v of [`l${ch}ee@example.com`, `lee@exa${ch}mple.com`, `lee@example.c${ch}om`, `${ch}lee@example.com`]) {
        expect(checkEmail(v), JSON.stringify(v)).toBe('emailInvalid');
      }
    }
  });

  it('registers no account for an address holding a zero-width character (it would show to staff as another)', async () => {
    for (const email of ['l\u200bee@example.com', 'lee@exam\u2060ple.com', 'lee\u00ad@example.com']) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: { email, password: 'correct horse battery', nickname: 'lee.x' } });
      expect(res.statusCode, JSON.stringify(email)).toBe(400);
      expect(res.json()).toEqual({
        message: 'Enter a valid e-mail address (at most 254 characters).',
        code: 'validation.email_invalid',
        params: { field: 'email' },
      });
    }
    expect(await ctx.app.deps.db.selectFrom('users').select('id').execute()).toEqual([]);
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email: 'lee@example.com', password: 'correct horse battery', nickname: 'lee.x' },
    });
    expect(ok.statusCode).toBe(201);
  });
});

describe('ad text as stored', () => {
  it('drops format and control characters, and reads blank fillers as spaces', () => {
    expect(cleanLine('Hi\u2060 there\u00ad\u200b\u202e')).toBe('Hi there');
    expect(cleanLine('\u2800'.repeat(12))).toBe('');
    expect(cleanLine(`${'\u3164'.repeat(6)}Hi${'\u115f\u1160\uffa0'.repeat(3)}there\u0085`)).toBe('Hi there');
    expect(cleanText(`${'\u2800'.repeat(30)}\n${'\u2060'.repeat(30)}\n\u3164`)).toBe('');
    expect(cleanText('First line\u00ad\u2800\n\n\n\nSecond\u200d line\u0007')).toBe('First line\n\nSecond line');
  });
});
