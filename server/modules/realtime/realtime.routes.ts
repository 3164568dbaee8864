import { Type } from 'typebox';
import websocket from '@fastify/websocket';
import { defineRoutes } from '../../core/http.ts';
import { Forbidden } from '../../core/errors.ts';
import { requireUser } from '../../core/auth.ts';
import { isSameOrigin } from './realtime.origin.ts';
import { Heartbeat, attachSocket } from './realtime.socket.ts';

const Message = Type.Object({ message: Type.String() });

/**
 * The one WebSocket, GET /api/ws. Guests never reach it: the session hook answers 401 before the
 * handshake (the path is not public in core/access.ts). Here a foreign or missing Origin gets 403,
 * still before upgrading. Server → client events: publicMessage, privateMessage,
 * invoiceStatusUpdate, published through deps.hub.
 */
export default defineRoutes(async (app, deps) => {
  // Registered here, not app-wide: the plugin wraps every handler in its scope (~71k → ~44k req/s
  // on a bare route), and only this route is a WebSocket.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // An upgrade refused by the app-wide session hook (401) never reaches the plugin's own hook, so
  // the plugin does not know to close the raw socket after the answer: close it here.
  app.addHook('onResponse', async (request) => {
    if (!request.ws && request.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket?.destroy();
  });
  const heartbeat = new Heartbeat();
  heartbeat.start();
  app.addHook('onClose', async () => heartbeat.stop());

  app.get('/api/ws', {
    websocket: true,
    schema: { response: { '4xx': Message } },
    onRequest: async (request) => {
      if (!isSameOrigin(request.headers.origin, request.host, deps.config.publicUrl)) {
        throw new Forbidden('This connection must come from the site itself.');
      }
    },
    preHandler: async (request, reply) => {
      if (!request.ws) return reply.status(426).header('upgrade', 'websocket').send({ message: 'Open this address as a WebSocket.' });
    },
  }, (socket, request) => {
    attachSocket(deps.hub, heartbeat, requireUser(request).id, socket);
  });
});
