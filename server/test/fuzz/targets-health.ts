import type { Spec } from './targets.ts';

/** Working requests of the health and cron modules' routes for the fuzzer (see targets.ts). */
export const specs: Record<string, Spec> = {
  'POST /api/admin/run-health-check': { seed: async () => ({ body: {} }) },
  'DELETE /api/admin/delete-health-check-by-id/:id': {
    seed: async (w) => {
      // A result of its own, made again when an input deleted it.
      const have = w.sqlite.prepare("SELECT id FROM health_checks WHERE message = 'fuzz' ORDER BY id DESC LIMIT 1").get() as { id: number } | undefined;
      const id =
        have?.id ??
        Number(
          w.sqlite
            .prepare("INSERT INTO health_checks (name, status, message, duration_ms, checked_at) VALUES ('disk', 'ok', 'fuzz', 1, ?)")
            .run(w.ctx.clock.now().toISOString()).lastInsertRowid,
        );
      return { params: { id: String(id) } };
    },
  },
  // purge-old-runs is the cheap job (two DELETEs): the fuzzer's working request runs it, never the
  // jobs that walk the uploads folder or ask outside servers. Mutated names are refused (400).
  'POST /api/admin/run-cron-job': { seed: async () => ({ body: { name: 'purge-old-runs' } }) },
};
