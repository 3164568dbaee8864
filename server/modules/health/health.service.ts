import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { currentActor, transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../core/errors.ts';
import { isStaff } from '../../core/policy.ts';
import { writeAudit } from '../../core/audit.ts';
import { paging } from '../../core/http.ts';
import { HEALTH_CHECK_NAMES, type AdminOverview, type HealthCheck, type HealthCheckName } from '../../../contract/api/health.ts';
import type { Said } from '../../../contract/api/common.ts';
import {
  DEFAULT_DISK_THRESHOLDS,
  checkDisk,
  checkSmtp,
  formatMs,
  memoryOutcome,
  paymentServerOutcome,
  smsOutcome,
  thrownOutcome,
  withTimeout,
  type CheckOutcome,
  type DiskThresholds,
} from './health.checks.ts';
import { checkDatabase } from './health.database.ts';
import * as repo from './health.repository.ts';
import { composeMail, pageLink, utcMoment } from '../../core/mail-templates.ts';
import { checkName, checkWords } from './health.words.ts';

/** What a run of the checks may be tuned with (tests simulate a full disk or a slow server through these). */
export interface HealthOptions {
  disk: DiskThresholds;
  /** A check without an answer by then is failing ("no answer in …"). */
  timeoutMs: number;
  /** A check that answered ok but took longer than this is degraded. */
  slowMs: number;
}

export const DEFAULT_HEALTH_OPTIONS: HealthOptions = { disk: DEFAULT_DISK_THRESHOLDS, timeoutMs: 10_000, slowMs: 3_000 };
/** How long a run waits for its alert e-mails before it answers (they go on after). */
const ALERT_WAIT_MS = 3_000;
/**
 * A claim on an alert e-mail (health_alerts) that was never marked sent is taken over after this
 * long: its process died on the way. Sending takes at most 90 s an address (core/mailer.ts
 * timeouts), one staff member after the other; a live sender is not overtaken.
 */
const ALERT_CLAIM_MS = 15 * 60_000;

type Row = NonNullable<Awaited<ReturnType<typeof repo.findCheck>>>;
const toDto = (r: Row): HealthCheck => ({
  id: r.id,
  name: r.name,
  status: r.status,
  message: r.message,
  says: r.says_json ? (JSON.parse(r.says_json) as Said) : null,
  durationMs: r.duration_ms,
  checkedAt: r.checked_at,
});

const ORDER = new Map<string, number>(HEALTH_CHECK_NAMES.map((n, i) => [n, i]));
const byCheckOrder = (a: HealthCheck, b: HealthCheck) => (ORDER.get(a.name) ?? 99) - (ORDER.get(b.name) ?? 99) || a.name.localeCompare(b.name);

export class HealthService {
  private readonly deps: AppDeps;
  /** Replaceable as a whole (tests); read at the start of each run. */
  options: HealthOptions = DEFAULT_HEALTH_OPTIONS;
  /** The run going on, which a second caller joins instead of checking everything twice. */
  private running: Promise<HealthCheck[]> | null = null;
  /** Each cache's lookups as the last memory check saw them: the next one reports what came after. */
  private readonly lookups = new Map<string, { hits: number; misses: number; refused: number }>();
  /** The latest results when they could not be stored (null once a run is stored again): serving() reads them. */
  private unrecorded: { name: HealthCheckName; status: string }[] | null = null;
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

  /** Runs every check (at once), records one row each, and e-mails staff about checks that turned failing. Never throws for a check. */
  run(): Promise<HealthCheck[]> {
    this.running ??= this.runOnce().finally(() => {
      this.running = null;
    });
    // The run is over once stored: the next one starts fresh even while its alert e-mails are still
    // on their way; each caller waits for them a little (alertsSettled).
    return this.running.then(
      async (rows) => {
        await this.alertsSettled();
        return rows;
      },
      async (err: unknown) => {
        await this.alertsSettled();
        throw err;
      },
    );
  }

  private async runOnce(): Promise<HealthCheck[]> {
    const { deps, options } = this;
    const at = deps.clock.now().toISOString();
    const checks: Record<HealthCheckName, () => Promise<CheckOutcome> | CheckOutcome> = {
      database: () => checkDatabase(deps.database, { at, timeoutMs: options.timeoutMs }),
      disk: () => checkDisk(deps.config.dataDir, options.disk),
      memory: () => this.memory(),
      smtp: () => checkSmtp(deps.mailer, deps.config.smtpUrl),
      'payment-server': async () => paymentServerOutcome(await deps.services.payments.health()),
      sms: async () => smsOutcome(await deps.services.sms.status()),
    };
    const results = await Promise.all(
      HEALTH_CHECK_NAMES.map(async (name) => {
        const started = performance.now();
        let outcome: CheckOutcome;
        try {
          outcome = await withTimeout(checks[name], options.timeoutMs);
        } catch (err) {
          outcome = thrownOutcome(err);
        }
        const ms = Math.round(performance.now() - started);
        if (outcome.status === 'ok' && ms > options.slowMs) {
          const slow = formatMs(ms);
          outcome = {
            status: 'degraded',
            message: `${outcome.message} (slow: ${slow})`,
            says: { ...outcome.says, params: { ...outcome.says.params, slow: ms } },
          };
        }
        const says = { ...outcome.says, ...(outcome.says.detail ? { detail: outcome.says.detail.slice(0, 1000) } : {}) };
        return { name, status: outcome.status, message: outcome.message.slice(0, 1000), says_json: JSON.stringify(says), duration_ms: ms, checked_at: at };
      }),
    );
    let stored: HealthCheck[];
    try {
      stored = await deps.db.transaction().execute(async (trx) => {
        // A check ok again is forgotten by the alerts with its result: its next failure is mailed.
        await repo.clearAlerts(
          trx,
          results.filter((r) => r.status === 'ok').map((r) => r.name),
        );
        return (await repo.insertChecks(trx, results)).map(toDto);
      });
    } catch (err) {
      // The results cannot be stored: often for the very reason a check fails (the database cannot
      // be written). They are kept here, so /api/health answers from them, and staff are told of
      // what fails all the same.
      deps.log.error({ err }, 'health: the check results could not be stored');
      this.unrecorded = results;
      this.alert(
        results.map((r) => toDto({ ...r, id: 0 })), // not stored: no id
        false,
      );
      throw new ServiceUnavailable('health.not_recorded');
    }
    this.unrecorded = null;
    this.alert(stored, true);
    return stored.sort(byCheckOrder);
  }

  /**
   * Starts the e-mails to staff about the failing checks they were not told about yet, unless a
   * batch is still on its way (the next run sends what is left then). Who was told is kept in
   * health_alerts until the check is ok again, so a check swinging between failing and degraded is
   * mailed once, a restart or a second server does not mail it again, and one whose e-mail could
   * not be sent (SMTP down too) is mailed by a later run. `recorded`: the results were stored (the
   * database can be written).
   */
  private alert(checks: HealthCheck[], recorded: boolean): void {
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
  private async alertsSettled(): Promise<void> {
    if (!this.alerting) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.alerting, new Promise<void>((resolve) => (timer = setTimeout(resolve, ALERT_WAIT_MS).unref()))]);
    clearTimeout(timer);
  }

  /** The memory check: this process's memory, and each cache's hits and misses since the last check. */
  private memory(): CheckOutcome {
    const caches = this.deps.services.listings.cacheUse().map((c) => {
      const last = this.lookups.get(c.name) ?? { hits: 0, misses: 0, refused: 0 };
      this.lookups.set(c.name, { hits: c.hits, misses: c.misses, refused: c.refused });
      return { ...c, hits: c.hits - last.hits, misses: c.misses - last.misses, refused: c.refused - last.refused };
    });
    const { rss, heapUsed } = process.memoryUsage();
    return memoryOutcome({ rssBytes: rss, heapUsedBytes: heapUsed, cacheMb: this.deps.config.cacheMb, caches });
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

  /** Staff pressed "run now": the run, audited. */
  async runNow(actor: SessionUser): Promise<HealthCheck[]> {
    if (!isStaff(await currentActor(this.deps.db, actor))) throw new Forbidden(); // still staff now
    const rows = await this.run();
    await writeAudit(this.deps.db, {
      actor: { id: actor.id, email: actor.email },
      action: 'health_check.run',
      targetType: 'health_check',
      targetId: null,
      after: rows.map((r) => ({ id: r.id, name: r.name, status: r.status })),
      at: this.deps.clock.now().toISOString(),
    });
    return rows;
  }

  async list(q: { page?: number; pageSize?: number; name?: string }) {
    const { page, pageSize, offset } = paging(q);
    const [{ rows, total }, latest] = await Promise.all([
      repo.listChecks(this.deps.db, { name: q.name, offset, limit: pageSize }),
      repo.latestByName(this.deps.db),
    ]);
    return { healthChecks: rows.map(toDto), latest: latest.map(toDto).sort(byCheckOrder), total, page, pageSize };
  }

  async delete(actor: SessionUser, id: number): Promise<void> {
    await transactionAs(this.deps.db, actor, async (trx, by) => {
      if (!isStaff(by)) throw new Forbidden(); // demoted or suspended meanwhile
      const row = await repo.findCheck(trx, id);
      if (!row) throw new NotFound('health.check_not_found');
      // The newest result is the check's current state: /api/health and the next run's "turned
      // failing" mail read it. Deleted, an older ok row would answer for a failing disk until then.
      const [newest] = await repo.latestByName(trx, [row.name]);
      if (newest?.id === row.id) throw new Conflict('health.result_current');
      await repo.deleteCheck(trx, id);
      await writeAudit(trx, {
        actor: { id: actor.id, email: actor.email },
        action: 'health_check.delete',
        targetType: 'health_check',
        targetId: String(id),
        before: toDto(row),
        at: this.deps.clock.now().toISOString(),
      });
    });
  }

  /** Deletes results older than `before` (the purge-old-runs job); how many. */
  purge(before: string): Promise<number> {
    return repo.purgeChecks(this.deps.db, before);
  }

  /**
   * For uptime monitors and load balancers: can this server serve? Its database answers and the
   * latest database and disk results are not failing. A failing mail, payment or SMS provider is
   * for staff to fix (they are mailed); taking the site out of rotation would not help it.
   */
  serving(): boolean {
    if (this.unrecorded?.some((r) => (r.name === 'database' || r.name === 'disk') && r.status === 'failing')) return false;
    try {
      return !repo.coreCheckFailing(this.deps.database.reader);
    } catch (err) {
      this.deps.log.error({ err }, 'health: the database cannot be read');
      return false;
    }
  }

  overview(): Promise<AdminOverview> {
    return repo.overviewCounts(this.deps.db);
  }
}
