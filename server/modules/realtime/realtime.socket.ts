import type { WebSocket } from 'ws';
import type { Hub } from '../../core/realtime.ts';

export const HEARTBEAT_MS = 30_000;
const MAX_TEXT = 2000;

/**
 * What a client may say. `clientMessage` {text} comes back to the sender alone as
 * `privateMessage` {text} (a delivery check for the client; nothing is relayed to other users,
 * since the product has no chat between users). `clientDisconnect` closes that socket.
 * Anything else (bad JSON, unknown events, wrong shapes) is ignored.
 */
export function onClientMessage(socket: WebSocket, raw: string): void {
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch {
    return;
  }
  if (!msg || typeof msg !== 'object') return;
  const { event, data } = msg as { event?: unknown; data?: unknown };
  if (event === 'clientMessage') {
    const text = data && typeof data === 'object' ? (data as { text?: unknown }).text : undefined;
    if (typeof text !== 'string' || text.length > MAX_TEXT) return;
    socket.send(JSON.stringify({ event: 'privateMessage', data: { text } }));
  } else if (event === 'clientDisconnect') {
    socket.close(1000, 'client disconnect');
  }
}

/**
 * Pings every socket each interval; one that has not answered the previous ping is terminated
 * (its 'close' then removes it from the hub). Catches peers that vanished without a FIN, which
 * would otherwise hold a slot and receive events forever.
 */
export class Heartbeat {
  private readonly alive = new Map<WebSocket, boolean>();
  private timer: ReturnType<typeof setInterval> | null = null;

  track(socket: WebSocket): void {
    this.alive.set(socket, true);
    socket.on('pong', () => this.alive.set(socket, true));
    socket.on('close', () => this.alive.delete(socket));
  }

  tick(): void {
    for (const [socket, ok] of this.alive) {
      if (!ok) {
        this.alive.delete(socket);
        socket.terminate();
        continue;
      }
      this.alive.set(socket, false);
      socket.ping();
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

/** Registers an accepted socket with the hub and wires its messages and its end. */
export function attachSocket(hub: Hub, heartbeat: Heartbeat, userId: string, socket: WebSocket): void {
  hub.add(userId, socket);
  heartbeat.track(socket);
  socket.on('message', (data, isBinary) => {
    if (!isBinary) onClientMessage(socket, data.toString());
  });
  socket.on('close', () => hub.remove(userId, socket));
}
