import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { routes } from '../../app/routes';
import s from '../../components/public/page.module.css';

export default function NotFound() {
  const { t } = useTranslation('pages');
  return (
    <article className={s.card}>
      <h1>{t('notFound.title')}</h1>
      <p className={s.lead}>{t('notFound.text')}</p>
      <p className={s.ctas} style={{ justifyContent: 'flex-start' }}>
        <Link href={routes.home} className="btn btn-primary">{t('notFound.home')}</Link>
        <Link href={routes.listingsUs} className="btn btn-white">{t('notFound.browse')}</Link>
      </p>
    </article>
  );
}
