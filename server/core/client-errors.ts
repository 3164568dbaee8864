import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { ConnectionError, FastifyBaseLogger } from 'fastify';
import { ERRORS, type ErrorCode } from '../../contract/errors/index.ts';
import { errorBody } from './errors.ts';

/** What Node's parser refused, as the status and code the answer carries (as Node's own answer would, with a code). */
function refusal(errCode: string): { status: number; code: ErrorCode } {
  switch (errCode) {
    case 'HPE_HEADER_OVERFLOW': // the headers (a browser with many cookies) or the request line (a long URL) past 16 kB
      return { status: 431, code: 'request.headers_too_large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'request.too_large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request.timeout' };
    default: // a malformed request line or header, Transfer-Encoding with Content-Length…
      return { status: 400, code: 'request.malformed' };
  }
}

/**
 * Fastify's `clientErrorHandler`: the answer to a request Node's HTTP parser refused, which never
 * becomes a request, so neither the error handler nor the header hook sees it. Fastify's default
 * answers `{error, message, statusCode}` (no `code` for the client to translate, PRODUCT §7) and
 * none of our security headers; this answers the API's error body and headers, written straight to
 * the socket, then closes it: after a parse error nothing more can be read from the connection.
 * It stays JSON for page addresses too (where the router's refusals answer a page, refusedPages):
 * the request line may be what was refused, so there is no path to choose by, and a browser
 * rarely sends 16 kB of headers. Fastify calls it with the app as `this`.
 */
export function clientErrorHandler(headers: Readonly<Record<string, string>>) {
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return function (this: { log: FastifyBaseLogger }, err: ConnectionError, socket: Socket): void {
    // A reset connection is already gone: there is nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, code } = refusal(err.code);
    this.log.debug({ err, status }, 'request refused by the HTTP parser');
    // As Node's own handler: never write into an answer already on its way on this connection
    // (a keep-alive request's), which would corrupt it for the peer. `_httpMessage` is the
    // socket's in-flight response, which Node's handler reads as well.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(errorBody(code));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}content-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../src/i18n/locales');
type PageLocale = 'en' | 'es' | 'pt';
/** The router's refusals a page address can meet (app.ts frameworkErrors). */
export type RefusedAddress = 'request.malformed_url' | 'request.url_too_long';

/**
 * Whether a URL the router refused names a page, not the API or a file: the first segment as the
 * router would read it (`/%61pi/…` is the API), the rest left alone (it may be what is malformed).
 */
export function namesPage(url: string): boolean {
  const first = /^\/([^/?]*)/.exec(url)?.[1] ?? '';
  let segment = first;
  try {
    segment = decodeURIComponent(first);
  } catch {
    // the malformed escape is in the first segment: no route of ours starts so, a page's 400
  }
  return segment !== 'api' && segment !== 'assets' && segment !== 'uploads' && !segment.startsWith('.');
}

/**
 * The page a browser gets for a page address the router refused (a link a chat app cut mid-escape,
 * one past the router's length): the refusal's sentence in the address's language (/es/… Spanish,
 * /pt/… Portuguese, else English) and a link home, where the API's JSON body showed English to
 * every visitor. A static page: the address cannot be routed, so no page of the app can render it.
 * The texts are read once, on the first refusal.
 */
export function refusedPages(dir = LOCALES_DIR): (url: string, code: RefusedAddress) => string {
  let texts: Record<PageLocale, { errors: Record<string, string>; home: string; siteName: string }> | null = null;
  const read = (file: string): Record<string, unknown> => {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const load = () => {
    const out = {} as NonNullable<typeof texts>;
    for (const l of ['en', 'es', 'pt'] as const) {
      const pages = read(path.join(dir, l, 'pages.json')) as { notFound?: { home?: string } };
      const seo = (read(path.join(dir, l, 'public.json')) as { seo?: { siteName?: string } }).seo;
      const errors = l === 'en' ? { ...ERRORS } : (read(path.join(dir, l, 'errors', 'common.json')) as Record<string, string>);
      out[l] = { errors, home: pages.notFound?.home ?? 'Go to the home page', siteName: seo?.siteName ?? 'XG Marketplace' };
    }
    return out;
  };
  return (url, code) => {
    texts ??= load();
    const locale = (/^\/(es|pt)(?=[/?]|$)/.exec(url)?.[1] ?? 'en') as PageLocale;
    const t = texts[locale];
    const message = escapeHtml(t.errors[code] ?? ERRORS[code]);
    const home = locale === 'en' ? '/' : `/${locale}`;
    return (
      `<!doctype html>\n<html lang="${locale}">\n<head>\n<meta charset="utf-8" />\n` +
      `<meta name="viewport" content="width=device-width, initial-scale=1" />\n<meta name="robots" content="noindex" />\n` +
      `<title>${message} | ${escapeHtml(t.siteName)}</title>\n</head>\n` +
      `<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">\n` +
      `<main>\n<p><a href="${home}">${escapeHtml(t.siteName)}</a></p>\n<h1 style="font-size: 1.4rem">${message}</h1>\n` +
      `<p><a href="${home}">${escapeHtml(t.home)}</a></p>\n</main>\n</body>\n</html>\n`
    );
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
