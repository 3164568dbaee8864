import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { CITY_PAGE_SIZE, adminCitiesStore, adminStatesStore, cityQuery, setCitiesEnabled, setStateEnabled } from '../../state/adminLocations';
import { asError, errorMessage } from '../../api/client';
import type { City, State } from '../../api/locations';
import { Pagination } from '../../components/market/Pagination';
import { LoadState } from '../../components/market/Status';
import { BusyButton } from '../../components/forms/BusyButton';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import styles from '../../components/market/market.module.css';

/** A change that takes places off the site, waiting for the admin's confirmation: a whole state, or every city on the page. */
type Confirming = { kind: 'state'; state: State } | { kind: 'page'; state: State; cityIds: string[] };

/**
 * Admin: enable or disable states, and per state search and toggle its cities. Disabling a state,
 * or every city on the page, hides every ad there at once: it is confirmed first, naming the state.
 */
export default function Locations() {
  const { t } = useTranslation('admin');
  const states = useSnapshot(adminStatesStore.state);
  const cities = useSnapshot(adminCitiesStore.state);
  const q = useSnapshot(cityQuery);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  // Kept as the error, worded at render: a language switch re-words it.
  const [error, setError] = useState<Error | null>(null);
  // What "Enable/Disable all on this page" did, worded at render in a status region that is always present.
  const [outcome, setOutcome] = useState<{ enabled: boolean; count: number } | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);

  useEffect(() => {
    void adminStatesStore.load();
  }, []);
  useEffect(() => {
    if (q.stateId) void adminCitiesStore.load();
  }, [q.stateId, q.query, q.page]);
  // Typing searches after a short pause instead of on every key.
  useEffect(() => {
    const id = setTimeout(() => {
      if (search !== cityQuery.query) Object.assign(cityQuery, { query: search, page: 1 });
    }, 300);
    return () => clearTimeout(id);
  }, [search]);

  // A control whose change runs refuses presses with aria-disabled rather than `disabled`: a focused
  // control that becomes disabled drops keyboard focus to the page's body.
  async function run(key: string, action: () => Promise<void>) {
    setBusy(key);
    setError(null);
    setOutcome(null);
    try {
      await action();
    } catch (e) {
      setError(asError(e));
    } finally {
      setBusy(null);
    }
  }

  /** The confirmed change, run with the dialog open (its button busy), which closes when it is done. */
  async function confirmed(c: Confirming) {
    if (c.kind === 'state') await run(c.state.id, () => setStateEnabled(c.state.id, false));
    else {
      await run('page:off', async () => {
        await setCitiesEnabled(c.state.id, c.cityIds, false);
        setOutcome({ enabled: false, count: c.cityIds.length });
      });
    }
    setConfirming(null);
  }

  const stateList = (states.data ?? []) as readonly State[];
  const chosen = stateList.find((s) => s.id === q.stateId);
  const cityList = (cities.data?.cities ?? []) as readonly City[];

  return (
    <section>
      <h1>{t('locations.title')}</h1>
      {error && (
        <div role="alert" className="alert alert-error">
          {errorMessage(error)}
        </div>
      )}
      {/* Two columns where they fit, one on a phone: a column is never wider than the screen, its tables scroll in their own box. */}
      <div style={{ display: 'grid', gap: 24, gridTemplateColumns: 'repeat(auto-fit, minmax(min(300px, 100%), 1fr))' }}>
        <div style={{ minWidth: 0 }}>
          <h2 id="locations-states-h">{t('locations.states')}</h2>
          <LoadState loading={states.loading && !states.data} error={states.error} />
          <div style={{ overflowX: 'auto' }}>
            <table className="data" aria-labelledby="locations-states-h">
              <thead>
                <tr>
                  <th>{t('locations.state')}</th>
                  <th>{t('locations.enabled')}</th>
                  <th>{t('locations.cities')}</th>
                </tr>
              </thead>
              <tbody>
                {stateList.map((s) => (
                  <tr key={s.id} aria-current={s.id === q.stateId || undefined}>
                    <th scope="row">
                      {s.name} <span className={styles.meta}>{s.code}</span>
                    </th>
                    <td>
                      <input
                        type="checkbox"
                        role="switch"
                        checked={s.enabled}
                        aria-disabled={busy === s.id || undefined}
                        aria-label={t('locations.enableState', { name: s.name })}
                        onChange={() => {
                          if (busy === s.id) return;
                          if (s.enabled) setConfirming({ kind: 'state', state: s });
                          else void run(s.id, () => setStateEnabled(s.id, true));
                        }}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-sm btn-white"
                        aria-pressed={s.id === q.stateId}
                        onClick={() => {
                          Object.assign(cityQuery, { stateId: s.id, query: '', page: 1 });
                          setSearch('');
                        }}
                      >
                        {t('locations.showCities', { name: s.name })}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div style={{ minWidth: 0 }}>
          <h2 id="locations-cities-h">{chosen ? t('locations.citiesOf', { name: chosen.name }) : t('locations.cities')}</h2>
          {!chosen && <p>{t('locations.pickState')}</p>}
          {chosen && (
            <>
              <div className="field">
                <label htmlFor="city-search">{t('locations.searchCities')}</label>
                <input id="city-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
              </div>
              <div className={styles.row} style={{ marginBottom: 8 }}>
                <BusyButton
                  className="btn btn-sm btn-white"
                  busy={busy === 'page:on'}
                  disabled={!cityList.length || !!busy}
                  onClick={() =>
                    void run('page:on', async () => {
                      const ids = cityList.map((c) => c.id);
                      await setCitiesEnabled(chosen.id, ids, true);
                      setOutcome({ enabled: true, count: ids.length });
                    })
                  }
                >
                  {t('locations.enablePage')}
                </BusyButton>
                <BusyButton
                  className="btn btn-sm btn-white"
                  busy={busy === 'page:off'}
                  disabled={!cityList.length || !!busy}
                  aria-haspopup="dialog"
                  onClick={() => setConfirming({ kind: 'page', state: chosen, cityIds: cityList.map((c) => c.id) })}
                >
                  {t('locations.disablePage')}
                </BusyButton>
              </div>
              <p role="status" className={styles.meta}>
                {outcome && t(outcome.enabled ? 'locations.pageEnabled' : 'locations.pageDisabled', { count: outcome.count })}
              </p>
              <LoadState loading={cities.loading} error={cities.error} />
              {cities.data && !cityList.length && <p>{t('locations.noCities')}</p>}
              <div style={{ overflowX: 'auto' }}>
                <table className="data" aria-labelledby="locations-cities-h">
                  <tbody>
                    {cityList.map((c) => (
                      <tr key={c.id}>
                        <th scope="row">
                          {c.name} <span className={styles.meta}>{t('locations.population', { count: c.population })}</span>
                        </th>
                        <td>
                          <input
                            type="checkbox"
                            role="switch"
                            checked={c.enabled}
                            aria-disabled={busy === c.id || undefined}
                            aria-label={t('locations.enableCity', { name: c.name })}
                            onChange={() => {
                              if (busy !== c.id) void run(c.id, () => setCitiesEnabled(chosen.id, [c.id], !c.enabled));
                            }}
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {cities.data && <Pagination page={q.page} pageSize={CITY_PAGE_SIZE} total={cities.data.total} onPage={(p) => (cityQuery.page = p)} />}
            </>
          )}
        </div>
      </div>
      {confirming && (
        <ConfirmDialog
          danger
          busy={busy !== null}
          title={
            confirming.kind === 'state'
              ? t('locations.confirmStateTitle', { name: confirming.state.name })
              : t('locations.confirmPageTitle', { count: confirming.cityIds.length, name: confirming.state.name })
          }
          confirmLabel={confirming.kind === 'state' ? t('locations.confirmStateConfirm', { name: confirming.state.name }) : t('locations.confirmPageConfirm')}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void confirmed(confirming)}
        >
          <p>{confirming.kind === 'state' ? t('locations.confirmStateBody', { name: confirming.state.name }) : t('locations.confirmPageBody')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
