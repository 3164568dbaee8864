import type { Config } from '../../core/config.ts';
import type { Said } from '../../../contract/api/common.ts';
import { TextbeltUnreachable } from './textbelt.client.ts';

// The Textbelt gateway as the service sees it: where it is (or that it must not be asked), what the
// health check reads of it, how its key shows to staff, and its failures as codes staff screens word.

/** What the health check reads of the SMS gateway. */
export interface SmsStatus {
  /** An admin has set a Textbelt token (without one, messages go to the outbox). */
  configured: boolean;
  /** Textbelt's quotaRemaining for the token; null when not configured or not reachable. */
  quotaRemaining: number | null;
  /** Plain English (logs, the staff e-mail's fallback) when Textbelt could not be asked or refused the key; null when fine. */
  error: string | null;
  /** The same as a code staff screens word in their language (textbeltSaid); null when fine. */
  failure: Said | null;
}

/** The key as staff see it: its last four characters, and only when that leaves at least four hidden. */
export function maskToken(token: string | null): string | null {
  if (!token) return null;
  return token.length >= 8 ? `••••${token.slice(-4)}` : '••••';
}

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Where Textbelt is, or null when it must not be asked. Tests never reach the internet: under
 * NODE_ENV=test only a TEXTBELT_URL on this machine (the fake Textbelt) is used; otherwise a key set
 * by a test (the fuzzer, the authorization matrix) leaves the gateway unconfigured: the outbox.
 */
export function gatewayUrl(config: Pick<Config, 'nodeEnv' | 'textbeltUrl'>): string | null {
  if (config.nodeEnv !== 'test') return config.textbeltUrl;
  try {
    return isLoopback(new URL(config.textbeltUrl).hostname) ? config.textbeltUrl : null;
  } catch {
    return null;
  }
}

/**
 * Why Textbelt could not be asked, or its refusal, as a code staff screens word (admin locale,
 * says.<code>): the figures as params, and only Textbelt's own words (or the system's error code)
 * as the detail shown as it came.
 */
export function textbeltSaid(failure: TextbeltUnreachable | { refused: string | null }): Said {
  if (!(failure instanceof TextbeltUnreachable)) return { code: 'sms.refused', ...(failure.refused ? { detail: failure.refused } : {}) };
  if (failure.reason === 'timeout') return { code: 'sms.timeout', params: { seconds: failure.seconds ?? 0 } };
  if (failure.reason === 'http') return { code: 'sms.http', params: { status: failure.status ?? 0 } };
  if (failure.reason === 'not_json') return { code: 'sms.not_json' };
  return { code: 'sms.connection', ...(failure.systemCode ? { detail: failure.systemCode } : {}) };
}
