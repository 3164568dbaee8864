import type { WebSocket } from 'ws';

export interface RealtimeMessage {
  event: string;
  data: unknown;
}

/**
 * The socket hub: one process holds every connection, so a Map is the whole registry.
 * Services publish thin events after commit; clients refetch over REST.
 */
export class Hub {
  private sockets = new Map<string, Set<WebSocket>>();

  add(userId: string, socket: WebSocket): void {
    let set = this.sockets.get(userId);
    if (!set) this.sockets.set(userId, (set = new Set()));
    set.add(socket);
  }

  remove(userId: string, socket: WebSocket): void {
    const set = this.sockets.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.sockets.delete(userId);
  }

  /** Sends to every open socket of one user; returns how many got it. */
  sendToUser(userId: string, event: string, data: unknown): number {
    const set = this.sockets.get(userId);
    if (!set) return 0;
    const text = JSON.stringify({ event, data } satisfies RealtimeMessage);
    let n = 0;
    for (const s of set) if (s.readyState === s.OPEN) (s.send(text), n++);
    return n;
  }

  broadcast(event: string, data: unknown): number {
    const text = JSON.stringify({ event, data } satisfies RealtimeMessage);
    let n = 0;
    for (const set of this.sockets.values()) for (const s of set) if (s.readyState === s.OPEN) (s.send(text), n++);
    return n;
  }

  /** Drops one user's sockets (sign-out everywhere, suspension). */
  disconnectUser(userId: string, code = 4001, reason = 'session ended'): void {
    for (const s of this.sockets.get(userId) ?? []) s.close(code, reason);
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
