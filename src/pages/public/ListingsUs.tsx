import { useEffect } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { aggregateStore, stateCounts } from '../../state/listings';
import { statesStore } from '../../state/locations';
import { pathFor, routes } from '../../app/routes';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

/** /listings/us: every state with its number of live ads (all three listing types). */
export default function ListingsUs() {
  const { t } = useTranslation('market');
  const agg = useSnapshot(aggregateStore.state);
  const states = useSnapshot(statesStore.state);

  useEffect(() => {
    void aggregateStore.load();
    if (!statesStore.state.data) void statesStore.load();
  }, []);

  const counts = new Map(stateCounts(agg.data).map((s) => [s.slug, s]));
  // Every enabled state is listed (a state without ads yet is still a place to look); states
  // known only from the counts are kept too.
  const rows = states.data
    ? states.data.map((s) => ({ slug: s.slug, name: s.name, count: counts.get(s.slug)?.count ?? 0 }))
    : [...counts.values()];
  const total = [...counts.values()].reduce((n, s) => n + s.count, 0);

  return (
    <section className={styles.panel}>
      <h1>{t('us.title')}</h1>
      <p>{t('us.intro', { count: total })}</p>
      <LoadState loading={(agg.loading || states.loading) && !rows.length} error={agg.error ?? states.error} />
      <ul className={styles.columns}>
        {[...rows]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((s) => (
            <li key={s.slug}>
              <Link href={pathFor(routes.listingsState, { state: s.slug })}>{s.name}</Link>{' '}
              <span className={styles.meta}>({t('adsCount', { count: s.count })})</span>
            </li>
          ))}
      </ul>
    </section>
  );
}
