import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { healthApi, type HealthQuery } from '../api/health';

export const HEALTH_PAGE_SIZE = 25;
const initial = (): HealthQuery => ({ page: 1, pageSize: HEALTH_PAGE_SIZE, name: '' });

/** The health check screen's data: the latest result of each check, and the history (newest first) with its filter. */
export const healthChecksStore = createResource((q: HealthQuery) => healthApi.list(q));
export const healthQuery = proxy(initial());
onReset(() => Object.assign(healthQuery, initial()));

export function loadHealthChecks(change: Partial<HealthQuery> = {}) {
  Object.assign(healthQuery, change);
  return healthChecksStore.load({ ...healthQuery });
}

/** Runs every check now (the server answers when they are done), then shows the history from its first page. */
export async function runHealthChecks() {
  const unchanged = sessionCheck();
  const { healthChecks } = await healthApi.run();
  if (unchanged()) await loadHealthChecks({ page: 1 });
  return healthChecks;
}

/** Deletes one result, then reloads the page it was on (a page back when it was the last row there). */
export async function deleteHealthCheck(id: number): Promise<void> {
  const unchanged = sessionCheck();
  await healthApi.remove(id);
  if (!unchanged()) return;
  const rows = healthChecksStore.state.data?.healthChecks.length ?? 0;
  const page = rows <= 1 && healthQuery.page > 1 ? healthQuery.page - 1 : healthQuery.page;
  await loadHealthChecks({ page });
}

/** The staff dashboard's overview: ads waiting for review, open reports, failing checks. */
export const adminOverviewStore = createResource(() => healthApi.overview());
