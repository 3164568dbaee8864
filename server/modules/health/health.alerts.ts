import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import type { HealthCheck } from '../../../contract/api/health.ts';
import * as repo from './health.repository.ts';
import { composeMail, pageLink, utcMoment } from '../../core/mail-templates.ts';
import { checkName, checkWords } from './health.words.ts';

// Telling staff about failing checks: one e-mail per check turning failing, claimed in
// health_alerts so a second server or a restart does not mail it again, and remembered in this
// process while the database cannot be written. HealthService hands each run's results over.

/** How long a run waits for its alert e-mails before it answers (they go on after). */
const ALERT_WAIT_MS = 3_000;
/**
 * A claim on an alert e-mail (health_alerts) that was never marked sent is taken over after this
 * long: its process died on the way. Sending takes at most 90 s an address (core/mailer.ts
 * timeouts), one staff member after the other; a live sender is not overtaken.
 */
const ALERT_CLAIM_MS = 15 * 60_000;

export class HealthAlerts {
  private readonly deps: AppDeps;
  /**
   * The failing checks this process mailed staff about while the database could not be written, so
   * no health_alerts row says so: not mailed again by it, and recorded once the database can be
   * written again. A check leaves it once it is ok again.
   */
  private readonly toldUnrecorded = new Set<string>();
  /** The alert e-mails on their way, if any: one batch at a time, and never holding up a run for long. */
  private alerting: Promise<void> | null = null;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /**
   * Starts the e-mails to staff about the failing checks they were not told about yet, unless a
   * batch is still on its way (the next run sends what is left then). Who was told is kept in
   * health_alerts until the check is ok again, so a check swinging between failing and degraded is
   * mailed once, a restart or a second server does not mail it again, and one whose e-mail could
   * not be sent (SMTP down too) is mailed by a later run. `recorded`: the results were stored (the
   * database can be written).
   */
  alert(checks: HealthCheck[], recorded: boolean): void {
    for (const c of checks) if (c.status === 'ok') this.toldUnrecorded.delete(c.name);
    if (this.alerting) return;
    const failing = checks.filter((c) => c.status === 'failing');
    if (!failing.length) return;
    this.alerting = (recorded ? this.alertClaimed(failing) : this.alertUnrecorded(failing))
      .catch((err: unknown) => {
        this.deps.log.error({ err }, 'health: could not alert staff about failing checks; the next run tries again');
      })
      .finally(() => {
        this.alerting = null;
      });
  }

  /**
   * Claims the failing checks nobody alerted staff about (of two servers running their checks at
   * once, one wins each), mails staff about them, then records them as told; a failed send gives
   * its claim up, for a later run.
   */
  private async alertClaimed(failing: HealthCheck[]): Promise<void> {
    const { deps } = this;
    const claim = randomUUID();
    const now = deps.clock.now();
    const won = new Set(
      await repo.claimAlerts(
        deps.db,
        failing.map((c) => c.name),
        claim,
        now.toISOString(),
        new Date(now.getTime() - ALERT_CLAIM_MS).toISOString(),
      ),
    );
    // Told while the database could not be written: recorded now, not mailed again.
    const told = [...won].filter((name) => this.toldUnrecorded.has(name));
    await repo.markAlerted(deps.db, claim, told, now.toISOString());
    for (const name of told) this.toldUnrecorded.delete(name);
    const news = failing.filter((c) => won.has(c.name) && !told.includes(c.name));
    if (!news.length) return;
    const names = news.map((c) => c.name);
    if (!(await this.mailStaff(news))) {
      await repo.releaseAlerts(deps.db, claim, names);
      return;
    }
    try {
      await repo.markAlerted(deps.db, claim, names, deps.clock.now().toISOString());
    } catch (err) {
      // Staff were told: this process does not mail them again, and records it at its next run.
      for (const name of names) this.toldUnrecorded.add(name);
      throw err;
    }
  }

  /**
   * The database cannot be written (the results were not stored): no claim can be taken. Mails
   * the failing checks neither health_alerts (read on the read-only connection) nor this process
   * says staff were told about; two servers in this state may both mail.
   */
  private async alertUnrecorded(failing: HealthCheck[]): Promise<void> {
    let recorded: string[] = [];
    try {
      recorded = repo.alertedNames(this.deps.database.reader);
    } catch (err) {
      this.deps.log.error({ err }, 'health: the alerts already sent cannot be read');
    }
    const news = failing.filter((c) => !recorded.includes(c.name) && !this.toldUnrecorded.has(c.name));
    if (news.length && (await this.mailStaff(news))) for (const c of news) this.toldUnrecorded.add(c.name);
  }

  /**
   * Waits for the alert e-mails on their way, at most ALERT_WAIT_MS: a relay that stalls must not
   * hold the health screen's "run now" or a job run (the e-mails go on after).
   */
  async alertsSettled(): Promise<void> {
    if (!this.alerting) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.alerting, new Promise<void>((resolve) => (timer = setTimeout(resolve, ALERT_WAIT_MS).unref()))]);
    clearTimeout(timer);
  }

  /**
   * One e-mail per staff address about the checks that just turned failing, in the language each
   * last used. Best effort: the rows are what counts. True when someone was told (or nobody is
   * there to tell); false when every e-mail failed, for a later run to try again.
   */
  private async mailStaff(failing: HealthCheck[]): Promise<boolean> {
    const { deps } = this;
    let to = await repo.staffEmails(deps.db);
    if (!to.length && deps.config.staffEmail) to = [await repo.staffAddress(deps.db, deps.config.staffEmail)];
    let told = !to.length;
    for (const { email, locale } of to) {
      try {
        // Each check worded as the health page words it, in the reader's language.
        const names = failing.map((c) => checkName(c.name, locale)).join(', ');
        const checks = failing.map((c) => `- ${checkName(c.name, locale)}: ${checkWords(c, locale)}`).join('\n');
        const link = pageLink(deps.config.publicUrl, locale, '/admin/dashboard/admin/health-check');
        await deps.mailer.send(composeMail('healthFailing', locale, email, { names, since: utcMoment(failing[0].checkedAt, locale), checks, link }));
        told = true;
      } catch (err) {
        deps.log.error({ err, to: email }, 'could not e-mail staff about a failing health check; the next run tries again');
      }
    }
    return told;
  }
}
