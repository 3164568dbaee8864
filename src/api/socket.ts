import { api } from './client';
import type { ClientEvent, ClientEventData, ServerEvent, ServerEventData } from '../../contract/events.ts';
import type { realtimeApi } from '../../contract/api/realtime.ts';
import type { BodyOf, ResponseOf } from '../../contract/api/types.ts';

// The real-time channel (PRODUCT §7): one native WebSocket at /api/ws on the page's own origin,
// accepted by the server only with the session cookie. Messages are JSON {event, data}; the
// events and their payloads, both ways, are those of contract/events.ts (types only here).

export type { ClientEvent, ClientEventData, ServerEvent, ServerEventData };

/** One incoming frame, read but not yet trusted: `event` may be one this client does not know. */
export interface SocketMessage {
  event: string;
  data: unknown;
}

/** The arguments after the event name: the payload, optional when the event carries none (null). */
export type ClientEventArgs<E extends ClientEvent> = null extends ClientEventData<E> ? [data?: ClientEventData<E>] : [data: ClientEventData<E>];

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

export function encodeSocketMessage<E extends ClientEvent>(event: E, ...args: ClientEventArgs<E>): string {
  return JSON.stringify({ event, data: args[0] ?? null });
}

type SendPublicMessage = (typeof realtimeApi)['POST /api/admin/send-public-message'];
/** A staff announcement's texts by language: English always, Spanish and Portuguese when written. */
export type PublicMessageText = BodyOf<SendPublicMessage>['text'];
/** An announcement's longest text, once trimmed (contract/api/realtime.ts PUBLIC_MESSAGE_MAX; the server refuses more). */
export const PUBLIC_MESSAGE_MAX = 500;

/** Staff: sends an announcement to every socket open now; answers how many it went to. */
export const sendPublicMessage = (text: PublicMessageText) => api.post<ResponseOf<SendPublicMessage>>('admin/send-public-message', { json: { text } });
