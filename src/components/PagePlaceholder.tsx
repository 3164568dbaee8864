import { useTranslation } from 'react-i18next';

/** A page that is not built yet: its translated title and a note, inside the real layout. */
export function PagePlaceholder({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <section>
      <h1>{t(`pageTitles.${titleKey}`)}</h1>
      <p>{t('comingSoon')}</p>
    </section>
  );
}
