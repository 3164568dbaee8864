import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { tList, type Section } from './i18nList';
import s from './page.module.css';

const slug = (h: string, i: number) => `s${i + 1}-${h.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40)}`;

/** A page of headed sections from the 'pages' namespace (terms, agreement, about, law enforcement). */
export function SectionsPage({ ns, toc = false, children, after }: { ns: string; toc?: boolean; children?: ReactNode; after?: ReactNode }) {
  const { t } = useTranslation('pages');
  const sections = tList<Section>(t, `${ns}.sections`);
  const tocId = useId();
  return (
    <article className={s.card}>
      <h1>{t(`${ns}.title`)}</h1>
      {t(`${ns}.intro`, { defaultValue: '' }) && <p className={s.lead}>{t(`${ns}.intro`)}</p>}
      {children}
      {toc && sections.length > 0 && (
        <nav className={s.toc} aria-labelledby={tocId}>
          <strong id={tocId}>{t('legal.tocLabel')}</strong>
          <ol>
            {sections.map((sec, i) => (
              <li key={sec.h}>
                <a href={`#${slug(sec.h, i)}`}>{sec.h}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {sections.map((sec, i) => (
        <section key={sec.h} aria-labelledby={slug(sec.h, i)}>
          <h2 id={slug(sec.h, i)}>{sec.h}</h2>
          {sec.p.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
      {after}
    </article>
  );
}
