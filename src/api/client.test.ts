import { afterEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { HTTPError } from 'ky';
import i18n from 'i18next';
import { server } from '../test/server';
import { api, ApiError, errorMessage, FALLBACK_MESSAGE, navigation } from './client';

function at(path: string) {
  window.history.replaceState(null, '', path);
}

describe('api client error catalogue', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns the JSON body of a successful call and sends cookies', async () => {
    let credentials: RequestCredentials | undefined;
    server.use(
      http.get('/api/thing', ({ request }) => {
        credentials = request.credentials;
        return HttpResponse.json({ ok: true });
      }),
    );
    expect(await api.get('thing')).toEqual({ ok: true });
    expect(credentials).toBe('include');
  });

  it("surfaces the response's message with its status", async () => {
    server.use(http.post('/api/thing', () => HttpResponse.json({ message: 'Nickname is taken.' }, { status: 409 })));
    const err = await api.post('thing', { json: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('Nickname is taken.');
    expect((err as ApiError).status).toBe(409);
    expect(errorMessage(err)).toBe('Nickname is taken.');
  });

  it('shows a coded error in the page’s language, naming the field in it, and keeps the code', async () => {
    server.use(
      http.post('/api/thing', () =>
        HttpResponse.json({ message: 'Unknown field: roles.', code: 'validation.unknown_field', params: { field: 'roles' } }, { status: 400 }),
      ),
    );
    try {
      for (const [lng, text] of [
        ['en', 'Unknown field: roles.'],
        ['es', 'Campo desconocido: funciones.'], // the field's label in the page's language
        ['pt', 'Campo desconhecido: funções.'],
      ]) {
        await i18n.changeLanguage(lng);
        const err = (await api.post('thing', { json: {} }).catch((e: unknown) => e)) as ApiError;
        expect(err.message, lng).toBe(text);
        expect(err.code).toBe('validation.unknown_field');
        expect(err.params).toEqual({ field: 'roles' });
      }
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('falls back to the server’s message for a code this client does not know', async () => {
    server.use(http.post('/api/thing', () => HttpResponse.json({ message: 'A newer server says so.', code: 'future.thing' }, { status: 409 })));
    await i18n.changeLanguage('es');
    try {
      const err = (await api.post('thing', { json: {} }).catch((e: unknown) => e)) as ApiError;
      expect(err.message).toBe('A newer server says so.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('rethrows the original error when the response has no message', async () => {
    server.use(http.get('/api/thing', () => new HttpResponse('oops', { status: 500 })));
    const err = await api.get('thing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HTTPError);
    expect((err as HTTPError).response.status).toBe(500);
  });

  it("says 'Something went wrong.' when no response arrives", async () => {
    server.use(http.get('/api/thing', () => HttpResponse.error()));
    const err = await api.get('thing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(FALLBACK_MESSAGE);
    expect((err as ApiError).status).toBeNull();
    expect(errorMessage(new Error(''))).toBe(FALLBACK_MESSAGE);
  });

  it("says 'Something went wrong.' in the page's language when no answer or no message comes (a proxy's 502 page)", async () => {
    await i18n.changeLanguage('es');
    try {
      server.use(http.get('/api/thing', () => HttpResponse.error()));
      expect(errorMessage(await api.get('thing').catch((e: unknown) => e))).toBe('Algo salió mal.');
      server.use(http.get('/api/thing', () => new HttpResponse('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })));
      const proxied = await api.get('thing').catch((e: unknown) => e);
      expect(proxied).toBeInstanceOf(HTTPError); // rethrown (seed §8) …
      expect(errorMessage(proxied)).toBe('Algo salió mal.'); // … but never shown as ky's English
      await i18n.changeLanguage('pt');
      expect(errorMessage(proxied)).toBe('Algo deu errado.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  // A body that is not JSON (a captive portal's page with a 200, an empty body) is no answer of
  // ours: an ApiError worded 'Something went wrong.' in the page's language of the moment.
  it("says 'Something went wrong.' in the page's language for an answer that is not JSON", async () => {
    server.use(
      http.get('/api/thing', () => new HttpResponse('<!DOCTYPE html><html>Hotel Wi-Fi</html>', { status: 200, headers: { 'content-type': 'text/html' } })),
    );
    const err = await api.get('thing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(200);
    expect((err as ApiError).code).toBeNull();
    expect(errorMessage(err)).toBe(FALLBACK_MESSAGE);
    try {
      await i18n.changeLanguage('es');
      expect(errorMessage(err)).toBe('Algo salió mal.');
      expect(errorMessage(new SyntaxError('Unexpected token < in JSON at position 0'))).toBe('Algo salió mal.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  // A kept error is worded when shown: a language switch re-words a coded refusal.
  it('words a coded error again in the language of the moment', async () => {
    server.use(
      http.post('/api/thing', () =>
        HttpResponse.json({ message: 'You have already used this promo code.', code: 'wallet.promo_code_already_used' }, { status: 409 }),
      ),
    );
    const err = await api.post('thing', { json: {} }).catch((e: unknown) => e);
    expect(errorMessage(err)).toBe('You have already used this promo code.');
    try {
      await i18n.changeLanguage('es');
      expect(errorMessage(err)).toBe('Ya usaste este código promocional.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('sends a 401 to sign-in with the current path as redirect', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    at('/admin/dashboard/my-wallet?tab=promo');
    server.use(http.get('/api/thing', () => HttpResponse.json({ message: 'Sign in first.' }, { status: 401 })));
    await expect(api.get('thing')).rejects.toThrow('Sign in first.');
    expect(assign).toHaveBeenCalledWith(`/auth/login?redirect=${encodeURIComponent('/admin/dashboard/my-wallet?tab=promo')}`);
  });

  it('keeps the locale prefix on a 403', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    at('/es/admin/dashboard/admin/pricing');
    server.use(http.get('/api/thing', () => HttpResponse.json({ message: 'Not allowed.' }, { status: 403 })));
    await expect(api.get('thing')).rejects.toThrow('Not allowed.');
    expect(assign).toHaveBeenCalledWith(`/es/auth/login?redirect=${encodeURIComponent('/es/admin/dashboard/admin/pricing')}`);
  });

  it('does not redirect when already on the sign-in page (any locale)', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    server.use(http.get('/api/thing', () => HttpResponse.json({ message: 'No.' }, { status: 401 })));
    for (const path of ['/auth/login?redirect=%2Fx', '/pt/auth/login']) {
      at(path);
      await expect(api.get('thing')).rejects.toThrow('No.');
    }
    expect(assign).not.toHaveBeenCalled();
  });

  it('does not redirect when the call opts out, nor on other errors', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    at('/admin/dashboard');
    server.use(
      http.post('/api/login', () => HttpResponse.json({ message: 'Wrong e-mail or password.' }, { status: 401 })),
      http.get('/api/thing', () => HttpResponse.json({ message: 'Gone.' }, { status: 404 })),
    );
    await expect(api.post('login', { json: {}, redirectOnAuth: false })).rejects.toThrow('Wrong e-mail or password.');
    await expect(api.get('thing')).rejects.toThrow('Gone.');
    expect(assign).not.toHaveBeenCalled();
  });
});
