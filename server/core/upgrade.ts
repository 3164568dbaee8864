import type { IncomingMessage } from 'node:http';
import { routedPath } from './http.ts';

/** The one route that switches protocols (server/modules/realtime/realtime.routes.ts). */
export const SOCKET_PATH = '/api/ws';

/**
 * Node's `shouldUpgradeCallback`: which requests carrying `Upgrade:` leave HTTP. Only a WebSocket
 * handshake to the socket's route does. By default Node hands every such request to
 * @fastify/websocket's 'upgrade' listener, which routes it through Fastify on a socket Node no
 * longer manages (no keep-alive or request timeout, a POST's body never read); once answered,
 * nothing closed it, so any anonymous client could pile up open sockets and hold up shutdown.
 * Everything else (another path, another method, h2c) is served as the plain HTTP request it also
 * is; the header is only an offer (RFC 9110 §7.8).
 */
export function isSocketHandshake(req: IncomingMessage): boolean {
  if (req.method !== 'GET' || !/(?:^|,)\s*websocket\s*(?:,|$)/i.test(req.headers.upgrade ?? '')) return false;
  const path = routedPath(req.url ?? '');
  return path === SOCKET_PATH || path === `${SOCKET_PATH}/`; // the router ignores a trailing slash
}
