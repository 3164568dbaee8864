import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { routes } from '../../app/routes';
import { tList } from '../../components/public/i18nList';
import s from '../../components/public/page.module.css';

interface Group {
  title: string;
  items: Array<{ q: string; a: string }>;
}

export default function Faq() {
  const { t } = useTranslation('pages');
  const groups = tList<Group>(t, 'faq.groups');
  return (
    <article className={`${s.card} ${s.faq}`}>
      <h1>{t('faq.title')}</h1>
      <p className={s.lead}>
        {t('faq.intro')} <Link href={routes.contactUs}>{t('faq.contactLink')}</Link>
      </p>
      {groups.map((g, gi) => (
        <section key={g.title} className={s.faqGroup} aria-labelledby={`faq-${gi}`}>
          <h2 id={`faq-${gi}`}>{g.title}</h2>
          {g.items.map((item) => (
            <details key={item.q}>
              <summary>{item.q}</summary>
              <p>{item.a}</p>
            </details>
          ))}
        </section>
      ))}
    </article>
  );
}
