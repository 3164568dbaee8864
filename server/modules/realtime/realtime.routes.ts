import websocket from '@fastify/websocket';
import { defineRoutes } from '../../core/http.ts';
import { Forbidden, sendError } from '../../core/errors.ts';
import { loadSessionUser, requireUser, sessionExpiresAtMs } from '../../core/auth.ts';
import { WindowLimiter, ipKey } from '../../core/ratelimit.ts';
import { isSameOrigin } from './realtime.origin.ts';
import { Heartbeat, MAX_PAYLOAD_BYTES, SESSION_RECHECK_MS, attachSocket, recheckSockets } from './realtime.socket.ts';
import { realtimeApi } from '../../../contract/api/realtime.ts';
import { SOCKET_PATH } from '../../core/upgrade.ts';

/** An address may open this many times the handshakes a user may (30 a minute → 600). */
export const HANDSHAKES_PER_IP_FACTOR = 20;

/** Staff announcements (POST /api/admin/send-public-message): one call to the service. */
const announcementRoutes = defineRoutes((app, deps) => {
  app.post('/api/admin/send-public-message', { schema: realtimeApi['POST /api/admin/send-public-message'] }, async (request) => ({
    sent: await deps.services.realtime.sendPublicMessage(requireUser(request), request.body.text),
  }));
});

/**
 * The one WebSocket, GET /api/ws. Guests never reach it: the session hook answers 401 before the
 * handshake (the path is not public in core/access.ts). Here a foreign or missing Origin gets 403,
 * still before upgrading. The events it carries, both ways, are those of contract/events.ts;
 * services publish theirs through deps.hub.
 */
export default defineRoutes(async (app, deps) => {
  // A scope of its own, loaded before the websocket plugin below is: that plugin wraps every
  // handler of the scope it is registered in, and this route is plain HTTP.
  await app.register(announcementRoutes, deps);
  // Registered here, not app-wide: the plugin wraps every handler in its scope (~71k → ~44k req/s
  // on a bare route), and only this route is a WebSocket.
  await app.register(websocket, {
    options: { maxPayload: MAX_PAYLOAD_BYTES },
    // A protocol error from the client (e.g. a message over maxPayload): ws has already queued the
    // close frame with its code (1009, 1002…) and finishes the close itself. The default handler
    // would log the client's fault as a server error and destroy the socket at once, which on a
    // slow link can drop that close frame.
    errorHandler: (error, socket, request) => {
      if ((error as { code?: string }).code?.startsWith('WS_ERR_')) return request.log.debug({ err: error }, 'websocket protocol error from client');
      request.log.error({ err: error }, 'websocket error');
      socket.terminate();
    },
  });
  // Handshakes a minute: the limit (30) is per user, since every socket is a signed-in user's and a
  // carrier's NAT puts thousands of phones behind one address; an address gets twenty times that,
  // counted before the session is read, so that a flood of handshakes (a guest's included) stops
  // there while the providers behind one NAT each open theirs.
  const perUser = new WindowLimiter(deps.clock, deps.limits.socketHandshakesPerMinute, 60_000);
  const perIp = new WindowLimiter(deps.clock, deps.limits.socketHandshakesPerMinute * HANDSHAKES_PER_IP_FACTOR, 60_000);
  // A hook of this scope, not of the route: it runs before the route's session hook (core/auth.ts),
  // so a guest's handshake counts too. Only real upgrades count (request.ws, set by the plugin's
  // own hook just before); a plain GET gets its 426 and holds nothing.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.ws) return done();
    try {
      perIp.hit([`ws:${ipKey(request.ip)}`], 'realtime.too_many_connections');
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
  // An upgrade refused by the app-wide session hook (401) never reaches the plugin's own hook, so
  // the plugin does not know to close the raw socket after the answer: close it here. Node hands
  // over no other upgrade than this route's handshake (core/upgrade.ts).
  // Callback style, not async: it runs after every request, and an async hook costs a promise each.
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.ws && request.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket?.destroy();
    done();
  });
  const heartbeat = new Heartbeat();
  heartbeat.start();
  const recheck = setInterval(() => {
    recheckSockets(deps).catch((err: unknown) => deps.log.warn({ err }, 'could not read the sockets’ sessions again'));
  }, SESSION_RECHECK_MS);
  recheck.unref();
  app.addHook('onClose', async () => {
    heartbeat.stop();
    clearInterval(recheck);
  });

  app.get(
    SOCKET_PATH,
    {
      websocket: true,
      schema: realtimeApi['GET /api/ws'],
      onRequest: async (request) => {
        // The session hook ran first: a guest got 401 and never comes here.
        if (request.ws) perUser.hit([`ws:${requireUser(request).id}`], 'request.rate_limited');
        if (!isSameOrigin(request.headers.origin, request.host, deps.config.publicUrl)) {
          throw new Forbidden('realtime.foreign_origin');
        }
      },
      preHandler: async (request, reply) => {
        if (!request.ws) return sendError(reply.header('upgrade', 'websocket'), 426, 'realtime.websocket_required');
      },
    },
    async (socket, request) => {
      const user = requireUser(request);
      // Its cookie's end too: a socket must not outlive the session it opened with (recheckSockets).
      const expiresAtMs = sessionExpiresAtMs(request, deps) ?? deps.clock.now().getTime();
      attachSocket(deps.hub, heartbeat, deps.clock, user.id, socket, { tokenVersion: user.tokenVersion, expiresAtMs });
      // The session was read before the upgrade: a sign-out, password change, suspension or
      // deletion that committed since then found no socket to close. Read it again, now that the
      // socket is where they look (a change from now on closes it through the hub).
      const now = await loadSessionUser(deps.db, user.id);
      if (!now || now.tokenVersion !== user.tokenVersion) socket.close(4001, 'session ended');
      else if (now.userStatus === 'suspended') socket.close(4003, 'account suspended');
    },
  );
});
