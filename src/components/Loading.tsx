import { useTranslation } from 'react-i18next';

// Never suspends: it is what shows while something else does, the app's own first render
// included (src/app/App.tsx), when i18next has not yet read a single text.
const NO_SUSPENSE = { useSuspense: false } as const;

/** The seed's 'Loading...' text while client-only pages wait, in the page's language once its texts are in. */
export function Loading() {
  const { t, ready } = useTranslation('common', NO_SUSPENSE);
  return (
    <p role="status" aria-live="polite" style={{ padding: 24, textAlign: 'center' }}>
      {ready ? t('loading') : 'Loading...'}
    </p>
  );
}
