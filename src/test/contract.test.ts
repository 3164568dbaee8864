import { describe, expect, it } from 'vitest';
import { apiJson } from './contract';

describe('apiJson: fixtures the server could send', () => {
  it('passes an answer of the route’s schema', async () => {
    const res = apiJson('GET /api/session', { isAuthenticated: false, userRoles: ['GUEST_USER'] });
    expect(await res.json()).toEqual({ isAuthenticated: false, userRoles: ['GUEST_USER'] });
  });

  it('refuses a fixture with a wrong type, an unknown value, or a field the server never sends', () => {
    expect(() => apiJson('GET /api/session', { isAuthenticated: 'yes', userRoles: [] } as never)).toThrow(/not an answer the server could send/);
    expect(() => apiJson('GET /api/session', { isAuthenticated: true, userRoles: ['ROOT'] } as never)).toThrow(/not an answer/);
    expect(() => apiJson('GET /api/session', { isAuthenticated: true, userRoles: [], nickname: 'x' } as never)).toThrow(/not an answer/);
  });

  it('checks error answers against the error schema', () => {
    expect(() => apiJson('POST /api/login', { message: 'Wrong e-mail or password.', code: 'auth.invalid_credentials' }, 401)).not.toThrow();
    expect(() => apiJson('POST /api/login', { message: 'Wrong e-mail or password.' } as never, 401)).toThrow(/not an answer/);
  });
});
