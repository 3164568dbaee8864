import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import Value from 'typebox/value';
import type { Clock } from '../../core/clock.ts';
import type { AppDeps } from '../../core/deps.ts';
import { sendEvent, type Hub } from '../../core/realtime.ts';
import { clientEvents, type ClientEvent, type ClientEventData } from '../../../contract/events.ts';

export const HEARTBEAT_MS = 30_000;
/** Largest incoming frame or message (ws maxPayload); over it ws closes the socket with 1009. */
export const MAX_PAYLOAD_BYTES = 4 * 1024;
/** Messages (and pings and pongs) one socket may send per window; over it the socket is closed with 1008. */
export const MAX_MESSAGES_PER_WINDOW = 20;
export const MESSAGE_WINDOW_MS = 10_000;

/**
 * What the server does with each client event (contract/events.ts); a client event without a
 * handler here does not compile. `clientMessage` {text} comes back to the sender alone as
 * `privateMessage` {text} (the client's check that the connection still works; nothing is
 * relayed to other users, since the product has no chat between users). `clientDisconnect`
 * closes that socket.
 */
export const clientEventHandlers: { [E in ClientEvent]: (socket: WebSocket, data: ClientEventData<E>) => void } = {
  clientMessage: (socket, { text }) => sendEvent(socket, 'privateMessage', { text }),
  clientDisconnect: (socket) => socket.close(1000, 'client disconnect'),
};

const isClientEvent = (event: unknown): event is ClientEvent => typeof event === 'string' && Object.hasOwn(clientEvents, event);

/** Reads one message; anything else (bad JSON, unknown events, a payload not of its event's schema) is ignored. */
export function onClientMessage(socket: WebSocket, raw: string): void {
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch {
    return;
  }
  if (!msg || typeof msg !== 'object') return;
  const { event, data = null } = msg as { event?: unknown; data?: unknown };
  if (!isClientEvent(event) || !Value.Check(clientEvents[event], data)) return;
  (clientEventHandlers[event] as (socket: WebSocket, data: unknown) => void)(socket, data);
}

/**
 * Pings every socket each interval; one that has not answered the previous ping is terminated
 * (its 'close' then removes it from the hub). Catches peers that vanished without a FIN, which
 * would otherwise hold a slot and receive events forever. Each ping carries a random token and
 * only a pong echoing it is an answer (RFC 6455 §5.5.3): a client may send pongs of its own at
 * any time, and one that no longer reads (so never sees the ping) must not pass for alive by them.
 */
export class Heartbeat {
  /** Per socket, the token of the ping not yet answered; null when the last one was answered. */
  private readonly waiting = new Map<WebSocket, Buffer | null>();
  private timer: ReturnType<typeof setInterval> | null = null;

  track(socket: WebSocket): void {
    this.waiting.set(socket, null);
    socket.on('pong', (data) => {
      const token = this.waiting.get(socket);
      if (token && token.equals(data)) this.waiting.set(socket, null);
    });
    socket.on('close', () => this.waiting.delete(socket));
  }

  tick(): void {
    for (const [socket, token] of this.waiting) {
      if (token) {
        this.waiting.delete(socket);
        socket.terminate();
        continue;
      }
      const next = randomBytes(8);
      this.waiting.set(socket, next);
      socket.ping(next);
    }
  }

  start(ms = HEARTBEAT_MS): void {
    this.timer ??= setInterval(() => this.tick(), ms);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * Counts what one socket sends in fixed windows. Each message costs a parse and maybe a send; a
 * client that floods is misbehaving (the app sends a handful), so it is cut off, not slowed down.
 * Returns false once the socket is over the limit (and has been closed). The windows run on the
 * clock that never goes back: after NTP stepped the wall clock back, a window read from it lasted
 * as long as the step, and a well-behaved tab's pongs of those minutes closed it.
 */
function messageBudget(socket: WebSocket, clock: Clock): () => boolean {
  let start = -Infinity;
  let count = 0;
  return () => {
    const now = clock.elapsed();
    if (now - start >= MESSAGE_WINDOW_MS) {
      start = now;
      count = 0;
    }
    if (++count <= MAX_MESSAGES_PER_WINDOW) return true;
    if (count === MAX_MESSAGES_PER_WINDOW + 1) socket.close(1008, 'too many messages');
    return false;
  };
}

/** How often every socket's session is read again (a change made by another server process on the file). */
export const SESSION_RECHECK_MS = 30_000;

/**
 * Reads again the session of every user holding a socket here, and closes the sockets whose
 * session no longer holds (signed out, password changed, suspended, deleted, its cookie run out). A change made in this
 * process closes them at once (hub.disconnectUser); one made by another server process on the same
 * file is seen here, within SESSION_RECHECK_MS. One indexed read per 500 users. How many closed.
 */
export async function recheckSockets(deps: Pick<AppDeps, 'hub' | 'db' | 'clock'>): Promise<number> {
  const ids = deps.hub.userIds();
  const nowMs = deps.clock.now().getTime();
  let closed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await deps.db.selectFrom('users').select(['id', 'status', 'token_version', 'deleted_at']).where('id', 'in', chunk).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of chunk) {
      const r = byId.get(id);
      closed += deps.hub.closeStale(id, r && r.deleted_at === null ? { status: r.status, tokenVersion: r.token_version } : null, nowMs);
    }
  }
  return closed;
}

/** Registers an accepted socket with the hub and wires its messages and its end. */
export function attachSocket(
  hub: Hub,
  heartbeat: Heartbeat,
  clock: Clock,
  userId: string,
  socket: WebSocket,
  session?: { tokenVersion: number; expiresAtMs: number },
): void {
  hub.add(userId, socket, session);
  heartbeat.track(socket);
  const allowed = messageBudget(socket, clock);
  socket.on('message', (data, isBinary) => {
    // A text frame arrives as one Buffer (binaryType 'nodebuffer', ws's default).
    if (allowed() && !isBinary && Buffer.isBuffer(data)) onClientMessage(socket, data.toString());
  });
  // ws answers pings itself, and reads every pong; a flood of either is still a flood (the heartbeat's answer costs one).
  socket.on('ping', allowed);
  socket.on('pong', allowed);
  socket.on('close', () => hub.remove(userId, socket));
}
