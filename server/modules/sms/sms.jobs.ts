import type { AppDeps } from '../../core/deps.ts';
import { DAY_MS } from '../../core/clock.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import { purgeOutbox } from '../../core/mailer.ts';
import * as repo from './sms.repository.ts';

/**
 * A phone code's row is kept a day past its end: the hourly limits count the last hour's codes and
 * only a user's latest code can be confirmed, so an older row only holds a phone number.
 */
export const PHONE_CODE_HISTORY_MS = DAY_MS;
/** A verification text's row (a keyed hash of the number, when it went) is kept a day: the per-number limit looks back an hour. */
export const PHONE_TEXT_HISTORY_MS = DAY_MS;
/** The SMS log (number, text, delivery status) is kept 90 days: long enough to answer "I never got my code". */
export const SMS_MESSAGE_HISTORY_MS = 90 * DAY_MS;

/**
 * Cron job purge-sms (daily): phone codes that ended over a day ago and messages older than 90
 * days, except those of an account under a legal hold (on the account or one of its ads), and the
 * per-number counts of texts sent over a day ago (no account and no number in clear: left out of
 * the report, which counts the codes and messages). The outbox files (texts and mail written to
 * DATA_DIR/outbox without a Textbelt key or SMTP_URL) go after the same 90 days, held accounts'
 * too: they are copies of what was delivered (a text's row, kept under a hold, holds its number and text).
 */
export async function purgeSms(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>): Promise<JobReport> {
  const now = deps.clock.now().getTime();
  const codes = await repo.purgeCodes(deps.db, new Date(now - PHONE_CODE_HISTORY_MS).toISOString());
  const messages = await repo.purgeMessages(deps.db, new Date(now - SMS_MESSAGE_HISTORY_MS).toISOString());
  await repo.purgeTexts(deps.db, new Date(now - PHONE_TEXT_HISTORY_MS).toISOString());
  purgeOutbox(deps.config.dataDir, new Date(now - SMS_MESSAGE_HISTORY_MS));
  const days = SMS_MESSAGE_HISTORY_MS / DAY_MS;
  return jobReport(
    `${codes} phone code${codes === 1 ? '' : 's'} ended over a day ago and ${messages} SMS message${messages === 1 ? '' : 's'} older than ${days} days deleted (accounts under a legal hold kept)`,
    'cron.sms_purged',
    undefined,
    [
      { code: 'cron.phone_codes_purged', params: { count: codes } },
      { code: 'cron.sms_messages_purged', params: { count: messages, days } },
    ],
  );
}
