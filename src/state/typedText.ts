// What a moderator typed in a dialog (a rejection's reason, a hold's reason, a closing note), kept
// in this tab (sessionStorage) for the signed-in user and the dialog's subject (an ad, a report):
// a session that ends on the way (the tab goes to sign in, and back), a stray click on the
// backdrop or Escape must not throw away a reason being written. It goes when it is sent, when
// the dialog is left through its Cancel button, on sign-out in this tab, and when another user
// signs in (as the ad drafts, state/adDraft.ts).

const PREFIX = 'xg.typed:';

/** The fields a dialog keeps (the text, and what goes with it, e.g. a rejection's category). */
export type TypedFields = Record<string, string>;

/** What `userId` typed in this tab for `subject`, or null: none, another user's, unreadable. */
export function readTyped(userId: string, subject: string): TypedFields | null {
  let raw: unknown;
  try {
    raw = JSON.parse(sessionStorage.getItem(PREFIX + subject) ?? 'null');
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { user, fields } = raw as { user?: unknown; fields?: unknown };
  if (user !== userId || !fields || typeof fields !== 'object') return null;
  const out: TypedFields = {};
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Keeps what `userId` typed for `subject`; null (nothing typed) keeps nothing. */
export function keepTyped(userId: string, subject: string, fields: TypedFields | null): void {
  try {
    if (!fields) return sessionStorage.removeItem(PREFIX + subject);
    sessionStorage.setItem(PREFIX + subject, JSON.stringify({ user: userId, fields }));
  } catch {
    // storage full or refused: the dialog still works, only without the safety net
  }
}

/** Forgets what was typed for `subject` (sent, or left through the dialog's Cancel). */
export function discardTyped(subject: string): void {
  try {
    sessionStorage.removeItem(PREFIX + subject);
  } catch {
    // storage refused: nothing was kept
  }
}

/** Forgets the texts of every user but `keepFor` (another user signed in), or all of them (sign-out). */
export function clearTyped(keepFor?: string): void {
  try {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const key = sessionStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      if (keepFor === undefined || ownerOf(sessionStorage.getItem(key)) !== keepFor) sessionStorage.removeItem(key);
    }
  } catch {
    // storage refused: nothing was kept
  }
}

/** The user a kept entry (`{user, …}`) belongs to, or null when unreadable. */
export function ownerOf(raw: string | null): string | null {
  try {
    const user = (JSON.parse(raw ?? 'null') as { user?: unknown } | null)?.user;
    return typeof user === 'string' ? user : null;
  } catch {
    return null;
  }
}
