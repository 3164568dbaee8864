import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { LISTING_TYPES, routes } from '../../app/routes';
import { LOADERS } from '../../app/loaders';
import { useRouteData } from '../../app/routeData';
import { publicSource } from '../../api/publicSource';
import { tList } from '../../components/public/i18nList';
import s from '../../components/public/page.module.css';

export default function Home() {
  const { t } = useTranslation('public');
  const loader = LOADERS.home;
  const { result, loading } = useRouteData(loader.key({}, ''), () => loader.load({}, '', publicSource));
  // Counts are a bonus: without them (API missing, error) the page still offers every way in.
  const counts = result?.status === 200 ? result.data.counts : null;
  const count = (code: string) => counts?.types.find((x) => x.listingType === code)?.count;
  const top = counts?.topStates ?? [];

  return (
    <>
      <section className={s.hero}>
        <h1>{t('home.heading')}</h1>
        <p>{t('home.intro')}</p>
        <div className={s.ctas}>
          <Link href={routes.listingsUs} className="btn btn-primary btn-lg btn-round">{t('home.browse')}</Link>
          <Link href={routes.createAds} className="btn btn-white btn-lg btn-round">{t('home.post')}</Link>
        </div>
      </section>

      <section aria-labelledby="home-types">
        <h2 id="home-types" className={s.sectionTitle}>{t('home.typesTitle')}</h2>
        <div className={s.grid3}>
          {LISTING_TYPES.map(({ code, slug }) => {
            const n = count(code);
            return (
              <Link key={code} href={`${routes.listingsUs}?type=${slug}`} className={s.tile}>
                <h3>{t(`seo.types.${code}`)}</h3>
                <p>{t(`home.typeDesc.${code}`)}</p>
                {n !== undefined && <span className={s.count}>{t('home.adsCount', { count: n })}</span>}
              </Link>
            );
          })}
        </div>
      </section>

      <section aria-labelledby="home-states" aria-busy={loading && !result}>
        <h2 id="home-states" className={s.sectionTitle}>{t('home.statesTitle')}</h2>
        {top.length > 0 ? (
          <ul className={s.states}>
            {top.map((st) => (
              <li key={st.stateId}>
                <Link href={`${routes.listingsUs}/${st.slug}`}>
                  <span>{st.name}</span>
                  <span className={s.count}>{st.count}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          result && <p className="alert alert-info">{counts ? t('home.statesEmpty') : t('home.loadError')}</p>
        )}
        <p>
          <Link href={routes.listingsUs} className="btn btn-white btn-sm">{t('home.allStates')}</Link>
        </p>
      </section>

      <section aria-labelledby="home-how">
        <h2 id="home-how" className={s.sectionTitle}>{t('home.howTitle')}</h2>
        <ol className={s.steps}>
          {tList<{ title: string; text: string }>(t, 'home.how').map((step) => (
            <li key={step.title}>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className={`${s.card} ${s.safety}`} style={{ marginTop: 30 }} aria-labelledby="home-safety">
        <div>
          <h2 id="home-safety">{t('home.safetyTitle')}</h2>
          <p style={{ margin: 0 }}>{t('home.safetyText')}</p>
        </div>
        <Link href={routes.reportCrime} className="btn btn-danger">{t('home.safetyLink')}</Link>
      </section>
    </>
  );
}
