import type { AppDeps } from '../../core/deps.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { writeAudit } from '../../core/audit.ts';
import { Forbidden, Invalid } from '../../core/errors.ts';
import { isStaff } from '../../core/policy.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { cleanText } from '../../../contract/rules.ts';
import { PUBLIC_MESSAGE_MAX, type PublicMessageText } from '../../../contract/api/realtime.ts';
import { HOUR_MS } from '../../core/clock.ts';

/**
 * Announcements one staff member may send an hour. Each reaches every connected user at once: a
 * handful a day is real use, more is a mistake (a double click, a script) that would fill
 * everyone's screen.
 */
export const PUBLIC_MESSAGES_PER_HOUR = 10;
const LANGUAGES = ['en', 'es', 'pt'] as const;

/**
 * Each text as it is shown (the text rules of an ad's description: ends trimmed, invisible
 * characters out), 1–PUBLIC_MESSAGE_MAX characters, or 400 naming the language's field. A
 * language left out stays out: the client falls back to English for it.
 */
function cleanTexts(input: PublicMessageText): PublicMessageText {
  const out: PublicMessageText = { en: '' };
  for (const lng of LANGUAGES) {
    const raw = input[lng];
    if (raw === undefined) continue;
    const text = cleanText(raw);
    if (text.length < 1 || text.length > PUBLIC_MESSAGE_MAX) throw new Invalid(`text.${lng}`, 'realtime.public_message_length', { max: PUBLIC_MESSAGE_MAX });
    out[lng] = text;
  }
  return out;
}

/** What the realtime module does beyond carrying events: staff announcements to everyone connected. */
export class RealtimeService {
  private readonly deps: AppDeps;
  private readonly announcements: WindowLimiter;
  constructor(deps: AppDeps) {
    this.deps = deps;
    this.announcements = new WindowLimiter(deps.clock, PUBLIC_MESSAGES_PER_HOUR, HOUR_MS);
  }

  /**
   * Sends `publicMessage` to every open socket and answers how many it went to. Audited in its
   * own transaction, which reads the actor again (demoted or suspended since the request came
   * in: refused); sent only once that has committed, so a refused request has told nobody.
   */
  async sendPublicMessage(actor: SessionUser, input: PublicMessageText): Promise<number> {
    if (!isStaff(actor)) throw new Forbidden();
    const text = cleanTexts(input);
    // Counted before the write: two requests at once cannot both take the last one of the hour.
    this.announcements.hit([actor.id], 'realtime.too_many_public_messages', { max: PUBLIC_MESSAGES_PER_HOUR });
    const at = this.deps.clock.now().toISOString();
    await transactionAs(this.deps.db, actor, async (trx, by) => {
      if (!isStaff(by)) throw new Forbidden(); // still staff now
      await writeAudit(trx, {
        actor: { id: actor.id, email: actor.email },
        action: 'public_message.send',
        targetType: 'public_message',
        targetId: null,
        after: { text },
        at,
      });
    });
    return this.deps.hub.broadcast('publicMessage', { text, at });
  }
}
