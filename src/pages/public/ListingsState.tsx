import { useEffect } from 'react';
import { Link, useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { aggregateStore, cityCounts, unslug } from '../../state/listings';
import { statesStore } from '../../state/locations';
import { LISTING_TYPES, pathFor, routes } from '../../app/routes';
import { LoadState } from '../../components/market/Status';
import { typeLabel } from '../../components/market/labels';
import styles from '../../components/market/market.module.css';

/** /listings/us/:state: the state's cities with ads, largest first, each with a link per listing type. */
export default function ListingsState() {
  const { t } = useTranslation('market');
  const { state = '' } = useParams<{ state: string }>();
  const agg = useSnapshot(aggregateStore.state);
  const states = useSnapshot(statesStore.state);

  useEffect(() => {
    void aggregateStore.load();
    if (!statesStore.state.data) void statesStore.load();
  }, [state]);

  const cities = cityCounts(agg.data, state);
  const stateName =
    states.data?.find((s) => s.slug === state)?.name ??
    agg.data?.flatMap((p) => p.rows).find((r) => r.stateSlug === state)?.stateName ??
    unslug(state);

  return (
    <section className={styles.panel}>
      <p>
        <Link href={routes.listingsUs}>{t('us.allStates')}</Link>
      </p>
      <h1>{t('state.title', { state: stateName })}</h1>
      <LoadState loading={agg.loading && !agg.data} error={agg.error} />
      {agg.data && !cities.length && <p>{t('state.empty')}</p>}
      <ul className={styles.list}>
        {cities.map((c) => (
          <li key={c.slug} className={styles.item}>
            <div className={styles.itemBody}>
              <h2 style={{ fontSize: 18, margin: '0 0 6px' }}>
                {c.name} <span className={styles.meta}>({t('adsCount', { count: c.count })})</span>
              </h2>
              <ul className={styles.row} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {LISTING_TYPES.filter((lt) => c.byType[lt.code]).map((lt) => (
                  <li key={lt.code}>
                    <Link href={pathFor(routes.listingsCity, { state, city: c.slug, type: lt.slug })}>
                      {typeLabel(t, lt.code)} ({c.byType[lt.code]})
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
