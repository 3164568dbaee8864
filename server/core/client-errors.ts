import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger } from 'fastify';
import type { ErrorCode } from '../../contract/errors/index.ts';
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
 * Fastify calls it with the app as `this`.
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
