import type { Spec } from './targets.ts';
import type { World } from './world.ts';

/** A hold in force on the provider's live ad (made again when an input released it). */
async function heldAd(w: World): Promise<string> {
  const adId = await w.fx.ad('held', 'provider', 'live');
  const owner = (w.sqlite.prepare('SELECT owner_id FROM ads WHERE id = ?').get(adId) as { owner_id: string }).owner_id;
  const active = w.sqlite.prepare("SELECT 1 FROM legal_holds WHERE target_type = 'ad' AND target_id = ? AND released_at IS NULL").get(adId);
  if (!active) {
    w.sqlite
      .prepare("INSERT INTO legal_holds (id, target_type, target_id, user_id, reason, placed_at) VALUES (?, 'ad', ?, ?, 'fuzz', ?)")
      .run(`fzhold${w.next()}`, adId, owner, w.ctx.clock.now().toISOString());
  }
  return adId;
}

/** Working requests of the moderation module's routes for the fuzzer (see targets.ts). */
export const specs: Record<string, Spec> = {
  'GET /api/admin/search-ads': { seed: async () => ({ query: { query: '(212) 555-0142', status: 'approved' } }) },
  'GET /api/admin/get-user/:id': { seed: async (w) => ({ params: { id: (await w.actor('provider')).id } }) },
  'POST /api/admin/place-legal-hold': {
    seed: async (w) => ({ body: { targetType: 'ad', targetId: await w.fx.ad('public', 'provider', 'live'), reason: 'Fuzz preservation request' } }),
  },
  'POST /api/admin/release-legal-hold': {
    seed: async (w) => {
      const targetId = await heldAd(w);
      const holdIds = (
        w.sqlite.prepare("SELECT id FROM legal_holds WHERE target_type = 'ad' AND target_id = ? AND released_at IS NULL").all(targetId) as { id: string }[]
      ).map((h) => h.id);
      return { body: { targetType: 'ad', targetId, holdIds, note: 'Released by the fuzzer.' } };
    },
  },
  'GET /api/admin/get-duplicate-flags': { seed: async (w) => ({ query: { adIds: await w.fx.ad('public', 'provider', 'live') } }) },
  'GET /api/admin/export-evidence/:id': { seed: async (w) => ({ params: { id: await w.fx.ad('public', 'provider', 'live') } }) },
};
