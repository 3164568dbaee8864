import { Type, type Static } from 'typebox';
import { AdStatusSchema } from './api/ads.ts';
import { UserStatusSchema } from './api/auth.ts';
import { PUBLIC_MESSAGE_MAX, publicMessageText } from './api/realtime.ts';

/**
 * The socket's events (GET /api/ws): every message is JSON `{event, data}`. One map per direction,
 * event name → TypeBox schema of its `data`. The server's hub (server/core/realtime.ts) and the
 * client's socket (src/api/socket.ts, src/state/socket.ts) are typed from these maps, so sending an
 * event that is not here, or the wrong payload, does not compile. Events are thin: they say what
 * changed; the client reads the data again over REST.
 *
 * server/modules/realtime/realtime.events.test.ts reads the sources and fails when an event is
 * sent but no one handles it, or handled but never sent.
 */

/** Server → client. */
export const serverEvents = {
  /**
   * A staff announcement to everyone connected (POST /api/admin/send-public-message), sent when
   * it is made: the one event that carries its content, since nothing keeps it to be read again.
   * `text` by language (English always; the client shows the page's language, else English),
   * `at` when it was sent (ISO).
   */
  publicMessage: Type.Object({ text: publicMessageText(PUBLIC_MESSAGE_MAX), at: Type.String() }),
  /** The answer to the sender's own `clientMessage`, to that socket alone: the client's proof that the connection still carries messages. */
  privateMessage: Type.Object({ text: Type.String() }),
  /** A BTCPay webhook about one of the user's invoices; `type` is BTCPay's event type upper-cased (INVOICECREATED, INVOICERECEIVEDPAYMENT, INVOICESETTLED…), `status` the invoice's. */
  invoiceStatusUpdate: Type.Object({ type: Type.String(), invoiceId: Type.String(), status: Type.String() }),
  /** One of the user's ads changed status (paid, approved, rejected, expired, disabled or enabled by staff). */
  adStatusUpdate: Type.Object({ adId: Type.String(), status: AdStatusSchema }),
  /**
   * A master changed the user's account status (approved, or back to pending): the session and the
   * ads' areas are read again (an approval starts held paid terms and shows the ads). A suspension
   * closes the sockets instead.
   */
  accountStatusUpdate: Type.Object({ status: UserStatusSchema }),
} as const;

/** Client → server. */
export const clientEvents = {
  /**
   * Echoed back to the sender alone as `privateMessage` (nothing is relayed to other users). At
   * most 1000 characters: any accepted message then fits in the socket's 4 KB frame limit (3 bytes
   * a character at worst, plus the envelope).
   */
  clientMessage: Type.Object({ text: Type.String({ maxLength: 1000 }) }),
  /** Closes this socket (1000). */
  clientDisconnect: Type.Null(),
} as const;

export type ServerEvent = keyof typeof serverEvents;
export type ClientEvent = keyof typeof clientEvents;
export type ServerEventData<E extends ServerEvent> = Static<(typeof serverEvents)[E]>;
export type ClientEventData<E extends ClientEvent> = Static<(typeof clientEvents)[E]>;
