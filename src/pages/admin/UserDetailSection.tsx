// The user screen's list frame: a titled section that counts its rows and says when the server sent only the newest.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * How many rows a list shows: "(12)", or "(last 200 of 206)" when the server sent only the newest
 * of `total` (the user screen's lists stop at 200; the evidence export has them all).
 */
export function Shown({ shown, total }: { shown: number; total?: number }) {
  const { t } = useTranslation('moderation');
  return <small style={{ color: 'var(--gray)', fontWeight: 400 }}>({total !== undefined && total > shown ? t('user.lastOf', { shown, total }) : shown})</small>;
}

export function Section({ id, title, count, total, children }: { id: string; title: string; count: number; total?: number; children: ReactNode }) {
  const { t } = useTranslation('moderation');
  return (
    <section aria-labelledby={id} style={{ marginTop: 28 }}>
      <h2 id={id} style={{ fontSize: 19 }}>
        {title} <Shown shown={count} total={total} />
      </h2>
      {count === 0 ? (
        <p>{t('user.nothing')}</p>
      ) : (
        // A table wider than a phone scrolls here: focusable and named, so a keyboard reaches its far columns.
        <div style={{ overflowX: 'auto' }} tabIndex={0} role="group" aria-labelledby={id}>
          {children}
        </div>
      )}
    </section>
  );
}
