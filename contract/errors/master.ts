/**
 * Errors of the master module, and of audit and realtime (English templates; es/pt in
 * src/i18n/locales/{es,pt}/errors/master.json).
 */
export const masterErrors = {
  'master.user_not_found': 'User not found.',
  'master.cannot_remove_own_master': 'You cannot remove your own MASTER_USER role.',
  'master.cannot_suspend_self': 'You cannot suspend yourself.',
  'master.last_master': 'This is the last master: there must always be one.',
  // Another master changed the account since this one's screen read it (the request's `from`).
  'master.user_changed': 'This account changed meanwhile: the list shows it as it is now.',
  // A staff role given to a suspended account would act the moment anyone lifts the suspension.
  'master.user_suspended': 'This account is suspended: lift the suspension before giving it a staff role.',
  // The conflict-of-interest rule of ad review (ad.review_own_ad) at the account gate: approving a pending owner publishes its ads.
  'master.user_linked': 'This account is linked to yours (the same phone or photo): another master must decide.',
  'field.targetType': 'target type',
  'field.targetId': 'target id',
  'field.from': 'what the list showed',
  // The socket's handshake (GET /api/ws), refused before the upgrade.
  'realtime.too_many_connections': 'Too many connections from your address. Please wait a minute.',
  'realtime.foreign_origin': 'This connection must come from the site itself.',
  'realtime.websocket_required': 'Open this address as a WebSocket.',
  // Staff announcements (POST /api/admin/send-public-message).
  'realtime.public_message_length': 'Each text of an announcement must be 1 to {{max}} characters.',
  'realtime.too_many_public_messages': 'You can send at most {{max}} announcements an hour. Please try again later.',
} as const;
