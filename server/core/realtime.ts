import type { WebSocket } from 'ws';
import type { ServerEvent, ServerEventData } from '../../contract/events.ts';

/** The text of one server event on the wire, JSON `{event, data}` (contract/events.ts). */
function encode<E extends ServerEvent>(event: E, data: ServerEventData<E>): string {
  return JSON.stringify({ event, data });
}

/**
 * Most a socket may have queued unsent before it is dropped. Events are small (an echo is ~3 KB at
 * most), so a backlog this large means a peer that stopped reading, possibly on purpose while it
 * keeps sending: without a bound the server would hold everything sent to it in memory.
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/**
 * Sends a frame unless the socket's backlog is already past MAX_UNSENT_BYTES; then the socket is
 * terminated instead (a close frame would only wait behind the backlog, since the peer does not
 * read) and its 'close' removes it from the hub. Whether it was sent.
 */
function sendBounded(socket: WebSocket, text: string): boolean {
  if (socket.bufferedAmount > MAX_UNSENT_BYTES) {
    socket.terminate();
    return false;
  }
  socket.send(text);
  return true;
}

/** Sends one event on one socket (the echo of a client's own message). */
export function sendEvent<E extends ServerEvent>(socket: WebSocket, event: E, data: ServerEventData<E>): void {
  sendBounded(socket, encode(event, data));
}

/** Sockets one user may hold (PRODUCT §11): enough for every tab a person uses, not for hoarding. */
export const MAX_SOCKETS_PER_USER = 10;
/**
 * Close code for a socket pushed out by a newer one of the same user. Its own code (not 1008), so
 * the client can tell it apart and not reconnect at once, which would push out the next tab.
 */
export const CLOSE_TOO_MANY_SOCKETS = 4008;

/** What a socket's session was when it opened, and what it is now (null: the account is gone). */
export interface SocketSession {
  status: string;
  tokenVersion: number;
}

/**
 * The socket hub: this process's connections, by user (another server process on the file holds
 * its own: a change made there reaches these at the next recheck, realtime.socket.ts).
 * Services publish thin events after commit; clients refetch over REST. Only the events of
 * contract/events.ts can be sent, each with its own payload type.
 */
export class Hub {
  private sockets = new Map<string, Set<WebSocket>>();
  /** The token version each socket's session had when it opened, and when its cookie runs out (ms). */
  private readonly sessions = new WeakMap<WebSocket, { tokenVersion: number; expiresAtMs: number }>();
  private readonly maxPerUser: number;

  constructor(maxPerUser = MAX_SOCKETS_PER_USER) {
    this.maxPerUser = maxPerUser;
  }

  /**
   * Registers a socket (with the session it opened with: its token version and its cookie's end);
   * when the user already holds the maximum, the oldest (first added) is closed.
   */
  add(userId: string, socket: WebSocket, session?: { tokenVersion: number; expiresAtMs: number }): void {
    if (session) this.sessions.set(socket, session);
    let set = this.sockets.get(userId);
    if (!set) this.sockets.set(userId, (set = new Set()));
    for (const oldest of set) {
      if (set.size < this.maxPerUser) break;
      // Forgotten now, not on its 'close' (which waits for the peer): it gets no more events and
      // does not count against the limit while it closes.
      set.delete(oldest);
      oldest.close(CLOSE_TOO_MANY_SOCKETS, 'too many connections: a newer one replaced this');
    }
    set.add(socket);
  }

  remove(userId: string, socket: WebSocket): void {
    const set = this.sockets.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.sockets.delete(userId);
  }

  /** Sends to every open socket of one user; returns how many got it. */
  sendToUser<E extends ServerEvent>(userId: string, event: E, data: ServerEventData<E>): number {
    const set = this.sockets.get(userId);
    if (!set) return 0;
    const text = encode(event, data);
    let n = 0;
    for (const s of set) {
      if (s.readyState === s.OPEN && sendBounded(s, text)) n++;
    }
    return n;
  }

  /** Sends to every open socket; returns how many got it. */
  broadcast<E extends ServerEvent>(event: E, data: ServerEventData<E>): number {
    const text = encode(event, data);
    let n = 0;
    for (const set of this.sockets.values()) {
      for (const s of set) {
        if (s.readyState === s.OPEN && sendBounded(s, text)) n++;
      }
    }
    return n;
  }

  /** Drops one user's sockets (sign-out everywhere, suspension). */
  disconnectUser(userId: string, code = 4001, reason = 'session ended'): void {
    for (const s of this.sockets.get(userId) ?? []) s.close(code, reason);
  }

  /** The users holding sockets now. */
  userIds(): string[] {
    return [...this.sockets.keys()];
  }

  /**
   * Closes the sockets of `userId` whose session no longer holds, as the session hook would
   * refuse their cookie: the account gone or signed out since, or the cookie run out by `nowMs`
   * (4001), suspended (4003). How many.
   */
  closeStale(userId: string, now: SocketSession | null, nowMs: number): number {
    let closed = 0;
    for (const s of this.sockets.get(userId) ?? []) {
      const opened = this.sessions.get(s);
      const holds = opened === undefined || (opened.tokenVersion === now?.tokenVersion && opened.expiresAtMs > nowMs);
      if (now && now.status !== 'suspended' && holds) continue;
      if (now?.status === 'suspended') s.close(4003, 'account suspended');
      else s.close(4001, 'session ended');
      closed++;
    }
    return closed;
  }

  closeAll(): void {
    for (const set of this.sockets.values()) for (const s of set) s.close(1001, 'server shutting down');
    this.sockets.clear();
  }

  get connectionCount(): number {
    let n = 0;
    for (const set of this.sockets.values()) n += set.size;
    return n;
  }
}
