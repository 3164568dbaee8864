/** Errors of the moderation module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/moderation.json). */
export const moderationErrors = {
  'moderation.user_not_found': 'User not found.',
  'moderation.subject_not_found': 'No account and no ad has this id.',
  'moderation.hold_reason_length': 'The reason must be {{min}} to {{max}} characters.',
  'moderation.note_length': 'The note must be {{min}} to {{max}} characters.',
  'moderation.not_held': 'There is no legal hold in force on this.',
  'moderation.hold_changed': 'That legal hold is no longer in force on this (another staff member released it meanwhile): check the holds in force now.',
  'moderation.own_hold': 'You cannot place or release a legal hold on your own account or ads: another staff member must.',
  'moderation.own_record': 'You cannot export your own evidence record: another staff member must.',
  'moderation.too_many_ids': 'At most {{max}} ads at once.',
  // The audit log's date range (GET /api/admin/get-audit-log from, to).
  'audit.date_invalid': 'Enter a date in UTC as ISO 8601, such as 2026-01-31 or 2026-01-31T18:00:00Z.',
  'audit.range_invalid': 'The start of the range must be before its end.',
  'field.note': 'note',
  'field.category': 'category',
  'field.actorId': 'who acted',
  'field.since': 'from',
  'field.until': 'until',
} as const;
