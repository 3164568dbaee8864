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
import { HealthAlerts } from './health.alerts.ts';

/** What a run of the checks may be tuned with (tests simulate a full disk or a slow server through these). */
export interface HealthOptions {
  disk: DiskThresholds;
  /** A check without an answer by then is failing ("no answer in …"). */
  timeoutMs: number;
  /** A check that answered ok but took longer than this is degraded. */
  slowMs: number;
}

export const DEFAULT_HEALTH_OPTIONS: HealthOptions = { disk: DEFAULT_DISK_THRESHOLDS, timeoutMs: 10_000, slowMs: 3_000 };

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
  /** Who was told about which failing check, and the alert e-mails on their way. */
  private readonly alerts: HealthAlerts;

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.alerts = new HealthAlerts(deps);
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
        await this.alerts.alertsSettled();
        return rows;
      },
      async (err: unknown) => {
        await this.alerts.alertsSettled();
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
      this.alerts.alert(
        results.map((r) => toDto({ ...r, id: 0 })), // not stored: no id
        false,
      );
      throw new ServiceUnavailable('health.not_recorded');
    }
    this.unrecorded = null;
    this.alerts.alert(stored, true);
    return stored.sort(byCheckOrder);
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
