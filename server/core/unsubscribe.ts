import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from './config.ts';
import { pageLink } from './mail-templates.ts';

// The signed one-click link that turns off reminder e-mails (expiring soon, expired): it names the
// user and carries an HMAC of the user id with a key derived from the session secret, so it works
// without signing in and cannot be made for anyone else.

const tokenFor = (secret: string, userId: string) =>
  createHmac('sha256', `unsubscribe:${secret}`).update(`reminders:${userId}`).digest('base64url').slice(0, 32);

export function checkUnsubscribeToken(secret: string, userId: string, token: string): boolean {
  const expected = Buffer.from(tokenFor(secret, userId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The page a person opens from the e-mail's footer (it asks to confirm). */
export function unsubscribePageUrl(config: Pick<Config, 'publicUrl' | 'jwtSecret'>, userId: string, locale: 'en' | 'es' | 'pt'): string {
  return pageLink(config.publicUrl, locale, `/unsubscribe?u=${encodeURIComponent(userId)}&t=${tokenFor(config.jwtSecret, userId)}`);
}

/** The RFC 8058 one-click address of List-Unsubscribe (mail providers POST to it). */
export function unsubscribeApiUrl(config: Pick<Config, 'publicUrl' | 'jwtSecret'>, userId: string): string {
  return `${config.publicUrl}/api/unsubscribe?u=${encodeURIComponent(userId)}&t=${tokenFor(config.jwtSecret, userId)}`;
}
