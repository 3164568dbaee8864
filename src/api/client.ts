import ky, { HTTPError, type KyInstance } from 'ky';
import i18n from 'i18next';
import type { ErrorParams } from '../../contract/errors/index.ts';
import { translateError } from '../i18n/errors';

// The seed's error catalogue (§8): a failed call surfaces the response's message (translated
// from its code into the page's language, contract/errors); with no
// message the error is rethrown; with no response the text is 'Something went wrong.'; a 401 or
// 403 (not on a login page already) sends the browser to /auth/login?redirect={current path}.

export const FALLBACK_MESSAGE = 'Something went wrong.';

/** 'Something went wrong.' in the page's language (common is always loaded). */
export function fallbackMessage(): string {
  return i18n.t('common:somethingWentWrong', { defaultValue: FALLBACK_MESSAGE });
}

export class ApiError extends Error {
  readonly status: number | null;
  /** The server's stable error code (contract/errors), when it sent one. */
  readonly code: string | null;
  readonly params: ErrorParams | undefined;
  /**
   * The server's own message, or null when it said nothing readable (no answer, a proxy's page):
   * what errorMessage words again in the page's language of the moment (a language switch).
   */
  readonly said: string | null;
  constructor(message: string, status: number | null, code: string | null = null, params?: ErrorParams, said: string | null = message) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
    this.said = said;
  }
}

/** Where a 401/403 sends the browser; replaceable in tests. */
export const navigation = {
  assign(url: string) {
    window.location.assign(url);
  },
};

export function loginRedirectUrl(): string {
  const { pathname, search } = window.location;
  const prefix = /^\/(es|pt)(\/|$)/.exec(pathname)?.[1];
  const redirect = encodeURIComponent(pathname + search);
  return `${prefix ? `/${prefix}` : ''}/auth/login?redirect=${redirect}`;
}

function onLoginPage(): boolean {
  return /^(\/(es|pt))?\/auth\/login/.test(window.location.pathname);
}

export async function toApiError(error: unknown, opts: { redirectOnAuth?: boolean } = {}): Promise<never> {
  if (error instanceof HTTPError) {
    const status = error.response.status;
    if ((status === 401 || status === 403) && opts.redirectOnAuth !== false && !onLoginPage()) {
      navigation.assign(loginRedirectUrl());
    }
    let body: unknown;
    try {
      body = await error.response.clone().json();
    } catch {
      body = null;
    }
    const { message, code, params } = (body ?? {}) as { message?: unknown; code?: unknown; params?: ErrorParams };
    if (typeof message === 'string' && message) {
      if (typeof code !== 'string') throw new ApiError(message, status);
      // Shown in the page's language; the server's English when this client does not know the code.
      await i18n.loadNamespaces('errors').catch(() => undefined);
      throw new ApiError(translateError(i18n.t.bind(i18n) as never, code, params, message), status, code, params, message);
    }
    throw error; // no message: rethrow (seed §8)
  }
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    throw new ApiError(fallbackMessage(), null, null, undefined, null); // no response at all
  }
  throw error;
}

const base: KyInstance = ky.create({
  prefixUrl: '/api',
  credentials: 'include',
  timeout: 30_000,
  retry: 0,
  // The page's language: what the server's e-mails to this user speak (a receipt, a decision).
  hooks: {
    beforeRequest: [
      (request) => {
        const lng = i18n.resolvedLanguage ?? i18n.language;
        if (lng === 'en' || lng === 'es' || lng === 'pt') request.headers.set('x-locale', lng);
      },
    ],
  },
});

type Opts = {
  json?: unknown;
  body?: BodyInit;
  searchParams?: Record<string, string | number | boolean>;
  /** This call's own request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
  redirectOnAuth?: boolean;
  /** This call's own limit (ms), or false for none: for a call the server answers only when long work ends. */
  timeout?: number | false;
};

async function call<T>(method: 'get' | 'post' | 'put' | 'delete', path: string, opts: Opts = {}): Promise<T> {
  const { redirectOnAuth, ...rest } = opts;
  try {
    const res = await base(path.replace(/^\//, ''), { method, ...rest });
    if (res.status === 204) return undefined as T;
    // A body that is not JSON (a hotel Wi-Fi's or a proxy's page served with 200, an empty body)
    // is no answer of ours: 'Something went wrong.', not the JavaScript parser's English.
    return (await res.json().catch(() => Promise.reject(unreadable(res.status)))) as T;
  } catch (e) {
    return toApiError(e, { redirectOnAuth });
  }
}

export const api = {
  get: <T>(path: string, opts?: Opts) => call<T>('get', path, opts),
  post: <T>(path: string, opts?: Opts) => call<T>('post', path, opts),
  put: <T>(path: string, opts?: Opts) => call<T>('put', path, opts),
  delete: <T>(path: string, opts?: Opts) => call<T>('delete', path, opts),
};

/** An answer whose body cannot be read: worded as 'Something went wrong.' wherever it is shown. */
function unreadable(status: number | null): ApiError {
  return new ApiError(fallbackMessage(), status, null, undefined, null);
}

/**
 * What a screen shows for a failed call: the server's message in the page's language; for an
 * answer without one (a proxy's 502 page, a 413, a body that is not JSON) or no answer,
 * 'Something went wrong.' in it too, never ky's own English ("Request failed with status code
 * 502…") nor the JSON parser's. Worded when called, in the page's language of that moment: keep
 * the error and call this at render, and a language switch re-words it (the 'errors' namespace,
 * once loaded for the failure, is loaded for the new language too).
 */
export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.said === null) return fallbackMessage();
    if (e.code === null) return e.said;
    return translateError(i18n.t.bind(i18n) as never, e.code, e.params, e.said);
  }
  if (e instanceof HTTPError || e instanceof SyntaxError) return fallbackMessage();
  return e instanceof Error && e.message ? e.message : fallbackMessage();
}

/** A failure as kept by a store or a form: the error itself (worded when shown), never a thrown non-Error. */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : unreadable(null);
}

/** What a kept failure says now: a text as it is (already worded by the screen), an error worded in the page's language. */
export function shownError(failure: string | Error | null | undefined): string | null {
  if (!failure) return null;
  return typeof failure === 'string' ? failure : errorMessage(failure);
}
