// The real-time channel (PRODUCT §7): one native WebSocket at /api/ws on the page's own origin,
// accepted by the server only with the session cookie. Messages are JSON {event, data}.

export interface SocketMessage {
  event: string;
  data: unknown;
}

export type ServerEvent = 'publicMessage' | 'privateMessage' | 'invoiceStatusUpdate';
export type ClientEvent = 'clientMessage' | 'clientDisconnect';

/** WebSocket readyState values (named here so the code does not depend on the global's statics). */
export const WS_CONNECTING = 0;
export const WS_OPEN = 1;

export function socketUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/api/ws`;
}

export function openSocket(): WebSocket {
  return new WebSocket(socketUrl());
}

/** Reads one incoming frame; anything that is not a well-formed {event, data} is dropped. */
export function parseSocketMessage(raw: unknown): SocketMessage | null {
  if (typeof raw !== 'string') return null;
  try {
    const m = JSON.parse(raw) as Partial<SocketMessage> | null;
    if (!m || typeof m.event !== 'string') return null;
    return { event: m.event, data: m.data ?? null };
  } catch {
    return null;
  }
}

export function encodeSocketMessage(event: ClientEvent, data: unknown = null): string {
  return JSON.stringify({ event, data } satisfies SocketMessage);
}
