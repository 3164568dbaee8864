import { Type, type Static } from 'typebox';
import { Errors } from './common.ts';
import type { RouteContract } from './types.ts';

/** An announcement's text in each language, as sent: at most this many characters once cleaned (the ends trimmed, invisible characters out). */
export const PUBLIC_MESSAGE_MAX = 500;

/**
 * An announcement's texts by language: English always (what a page in any other language falls
 * back to), Spanish and Portuguese when staff wrote them. `maxLength` is the cap on what is read;
 * the sent text is the trimmed one, which the server holds to 1–PUBLIC_MESSAGE_MAX characters.
 * A function, so the body and the event each get their own schema object (the app closes every
 * body schema to unknown properties in place).
 */
export const publicMessageText = (maxLength: number) =>
  Type.Object({
    en: Type.String({ maxLength }),
    es: Type.Optional(Type.String({ maxLength })),
    pt: Type.Optional(Type.String({ maxLength })),
  });
export type PublicMessageText = Static<ReturnType<typeof publicMessageText>>;

/**
 * The realtime module's routes. GET /api/ws is the one WebSocket: once upgraded (101) it speaks
 * the events of contract/events.ts. Its HTTP answers are only the refusals before the upgrade:
 * 401 (no session), 403 (foreign Origin), 426 (a plain GET), 429 (too many handshakes).
 */
export const realtimeApi = {
  'GET /api/ws': { response: { ...Errors } },
  /**
   * Staff: an announcement to everyone connected now ("maintenance tonight at 02:00 UTC"), sent
   * as `publicMessage` to every open socket; answers how many sockets it was sent to. Nothing
   * keeps it for those who connect later. 400 for a text empty or longer than PUBLIC_MESSAGE_MAX
   * once trimmed, 429 past 10 an hour per staff member. Audited.
   */
  'POST /api/admin/send-public-message': {
    body: Type.Object({ text: publicMessageText(PUBLIC_MESSAGE_MAX * 2) }),
    response: { 200: Type.Object({ sent: Type.Integer({ minimum: 0 }) }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
