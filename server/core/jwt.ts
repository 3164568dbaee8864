import { createHmac, timingSafeEqual } from 'node:crypto';

// HS256 JWT, the only form the session cookie takes. Small enough to own: no algorithm
// negotiation ("alg" is checked to be HS256), constant-time signature comparison, exp enforced.

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const body = b64(JSON.stringify(payload));
  const sig = createHmac('sha256', secret).update(`${HEADER}.${body}`).digest('base64url');
  return `${HEADER}.${body}.${sig}`;
}

export function verifyJwt<T extends { exp?: number }>(token: string, secret: string, nowSeconds: number): T | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    if (header.alg !== 'HS256') return null;
    const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as T;
    if (typeof payload.exp !== 'number' || payload.exp <= nowSeconds) return null;
    return payload;
  } catch {
    return null;
  }
}
