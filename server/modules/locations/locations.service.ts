import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';
import { currentActor, type SessionUser } from '../../core/auth.ts';
import { can } from './locations.policy.ts';
import { writeAudit } from '../../core/audit.ts';
import { Forbidden, NotFound, Unauthorized } from '../../core/errors.ts';
import { paging } from '../../core/http.ts';
import * as repo from './locations.repository.ts';
import { startHeldTermsIn } from '../ads/ads.lifecycle.repository.ts';
import { restoreOpenPlaces, withdrawClosedPlace } from '../uploads/uploads.withdrawn.ts';
import type { CityDto, StateDto } from './locations.repository.ts';

/** Disabled locations are for staff eyes only; asking for them is refused, not quietly ignored. */
function assertMaySeeDisabled(viewer: SessionUser | null): void {
  if (!viewer) throw new Unauthorized();
  if (!can(viewer, 'seeDisabled')) throw new Forbidden('locations.staff_only');
}

/**
 * States and cities. The public lists are read on nearly every page, so the service keeps them in
 * memory (16,000 small rows) and drops the cache whenever staff change a status through it, or
 * another server process on the file did: a place enabled or disabled is logged in
 * ads_public_changes (migration 0011), which the public caches follow (listings.changes.ts); this
 * one follows it too. One instance per app, so tests never share a cache.
 */
export class LocationsService {
  private readonly deps: AppDeps;
  private states: StateDto[] | null = null;
  private enabledStates: StateDto[] | null = null;
  private readonly cities = new Map<string, CityDto[]>();
  private readonly enabledCities = new Map<string, CityDto[]>();

  private following = false;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /** Brings the cache up to date with what other processes committed (the listings' change log; cheap when nothing was written). */
  private sync(): void {
    const listings = this.deps.services.listings;
    if (!this.following) {
      this.following = true;
      listings.changes.subscribe((c) => {
        if (c.all) this.invalidate(); // a place changed (or changes were missed)
      });
    }
    listings.sync();
  }

  private invalidate(): void {
    this.states = null;
    this.enabledStates = null;
    this.cities.clear();
    this.enabledCities.clear();
  }

  private async allStates(): Promise<StateDto[]> {
    this.sync();
    return (this.states ??= await repo.listStates(this.deps.db));
  }

  private async allCities(stateId: string): Promise<CityDto[]> {
    let list = this.cities.get(stateId);
    if (!list) this.cities.set(stateId, (list = await repo.listCitiesOfState(this.deps.db, stateId)));
    return list;
  }

  async listStates(viewer: SessionUser | null, includeDisabled: boolean): Promise<StateDto[]> {
    if (includeDisabled) assertMaySeeDisabled(viewer);
    const all = await this.allStates();
    if (includeDisabled) return all;
    // The public list is filtered once, not on every request (unless the cache was dropped meanwhile).
    if (this.enabledStates && all === this.states) return this.enabledStates;
    const enabled = all.filter((s) => s.enabled);
    if (all === this.states) this.enabledStates = enabled;
    return enabled;
  }

  /** `stateKey` is the state's id ('ny'), code or slug ('new-york'). A disabled state is a 404 to the public. */
  async listCities(viewer: SessionUser | null, stateKey: string, includeDisabled: boolean): Promise<CityDto[]> {
    if (includeDisabled) assertMaySeeDisabled(viewer);
    const key = stateKey.trim().toLowerCase();
    const state = (await this.allStates()).find((s) => s.id === key || s.slug === key);
    if (!state || (!includeDisabled && !state.enabled)) throw new NotFound('locations.state_not_found');
    const all = await this.allCities(state.id);
    if (includeDisabled) return all;
    let enabled = this.enabledCities.get(state.id);
    if (!enabled) {
      enabled = all.filter((c) => c.enabled);
      if (this.cities.get(state.id) === all) this.enabledCities.set(state.id, enabled);
    }
    return enabled;
  }

  /** Staff list: one page of a state's cities, disabled ones included. */
  async pageCities(q: { stateId: string; query?: string; page?: number; pageSize?: number }) {
    const state = await repo.findState(this.deps.db, q.stateId);
    if (!state) throw new NotFound('locations.state_not_found');
    const { page, pageSize, offset } = paging(q, 50);
    const query = q.query?.trim() || null;
    const result = await repo.pageCities(this.deps.db, { stateId: state.id, query, offset, limit: pageSize });
    return { ...result, page, pageSize };
  }

  /**
   * Without cityIds, enables or disables the state itself; with cityIds, those cities of that
   * state (every id must belong to it, or nothing changes). Audited in the same transaction.
   * Enabled, the held paid terms of approved owners' ads there start, as they would have at the
   * owner's approval had the place been open (startHeldTerms); the audit row names those ads
   * (`adTermsStarted`), as the owner's approval does. A place that already has the requested
   * status is left alone, unaudited (a double click, a retry). Returns how many places it changed.
   */
  async setStatus(actor: SessionUser, input: { stateId: string; cityIds?: string[]; enabled: boolean }): Promise<{ updated: number }> {
    if (!can(actor, 'setStatus')) throw new Forbidden('locations.staff_only');
    const at = this.deps.clock.now().toISOString();
    const who = { id: actor.id, email: actor.email };
    const result = await this.deps.db.transaction().execute(async (trx) => {
      // Again with the actor as they are now: demoted or suspended while this waited for the lock, refused.
      if (!can(await currentActor(trx, actor), 'setStatus')) throw new Forbidden('locations.staff_only');
      const state = await repo.findState(trx, input.stateId);
      if (!state) throw new NotFound('locations.state_not_found');
      if (input.cityIds === undefined) {
        if (state.enabled === input.enabled) return { updated: 0 };
        await repo.setStateEnabled(trx, state.id, input.enabled);
        await placePhotos(trx, state.id, undefined, input.enabled);
        const started = input.enabled ? await startedIds(trx, state.id, undefined, at) : [];
        await writeAudit(trx, {
          actor: who,
          action: 'state.status',
          targetType: 'state',
          targetId: state.id,
          before: { enabled: state.enabled },
          after: started.length ? { enabled: input.enabled, adTermsStarted: started } : { enabled: input.enabled },
          at,
        });
        return { updated: 1 };
      }
      const ids = [...new Set(input.cityIds)];
      const found = await repo.citiesByIds(trx, state.id, ids);
      if (found.length !== ids.length) {
        const known = new Set(found.map((c) => c.id));
        const missing = ids.filter((id) => !known.has(id));
        throw new NotFound('locations.cities_not_in_state', { state: state.name, cities: `${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}` });
      }
      const changed = found.filter((c) => c.enabled !== input.enabled);
      if (!changed.length) return { updated: 0 };
      const changedIds = changed.map((c) => c.id);
      await repo.setCitiesEnabled(trx, state.id, changedIds, input.enabled);
      await placePhotos(trx, state.id, changedIds, input.enabled);
      // Started terms by city, so each city's row names the ads its opening started.
      const started = new Map<string, string[]>();
      if (input.enabled) {
        const ads = await startedIds(trx, state.id, changedIds, at);
        if (ads.length) {
          const rows = await trx.selectFrom('ads').select(['id', 'city_id']).where('id', 'in', ads).execute();
          const cityOf = new Map(rows.map((r) => [r.id, r.city_id]));
          for (const id of ads) {
            const city = cityOf.get(id)!;
            started.set(city, [...(started.get(city) ?? []), id]);
          }
        }
      }
      for (const c of changed) {
        const adTermsStarted = started.get(c.id);
        await writeAudit(trx, {
          actor: who,
          action: 'city.status',
          targetType: 'city',
          targetId: c.id,
          before: { enabled: c.enabled, stateId: state.id },
          after: adTermsStarted ? { enabled: input.enabled, stateId: state.id, adTermsStarted } : { enabled: input.enabled, stateId: state.id },
          at,
        });
      }
      return { updated: changed.length };
    });
    this.invalidate();
    return result;
  }
}

/** The ads whose held terms opening these places started: those that show and those their owners set offline. */
async function startedIds(trx: Executor, stateId: string, cityIds: readonly string[] | undefined, at: string): Promise<string[]> {
  const terms = await startHeldTermsIn(trx, stateId, cityIds, at);
  return [...terms.showing, ...terms.offline];
}

/** Closed, the places' ads' photos stop answering the public; opened, those of ads now in an open place answer again. */
async function placePhotos(trx: Executor, stateId: string, cityIds: readonly string[] | undefined, enabled: boolean): Promise<void> {
  if (enabled) await restoreOpenPlaces(trx);
  else await withdrawClosedPlace(trx, stateId, cityIds);
}
