import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { statesStore } from '../../state/locations';
import o from './overlay.module.css';

export const ALL_STATES = '*';

/**
 * Choose a state, go to its listings (seed §2). States load when the picker appears and again when
 * it is opened while the list is empty; "All states" goes to the country page.
 */
export function StatePicker({ onPick }: { onPick: (slug: string | null) => void }) {
  const { t } = useTranslation('public');
  const snap = useSnapshot(statesStore.state);
  const [value, setValue] = useState('');
  const id = useId();
  const statusId = useId();
  const states = snap.data ?? [];

  useEffect(() => {
    void statesStore.load(false);
  }, []);
  const reloadIfEmpty = () => {
    // The live store, not the render's snapshot: mousedown and focus arrive in one event turn.
    const live = statesStore.state;
    if (!live.loading && !live.data?.length) void statesStore.load(false);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!value) return;
    onPick(value === ALL_STATES ? null : value);
  };

  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('search.byState')}</h3>
      <div className={o.row}>
        <div className={`field ${o.field}`}>
          <label htmlFor={id}>{t('search.stateLabel')}</label>
          <select
            id={id}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onMouseDown={reloadIfEmpty}
            onFocus={reloadIfEmpty}
            aria-describedby={statusId}
            aria-busy={snap.loading}
          >
            <option value="">{snap.loading && !states.length ? t('search.loadingStates') : t('search.statePlaceholder')}</option>
            <option value={ALL_STATES}>{t('search.allStates')}</option>
            {states.map((s) => (
              <option key={s.id} value={s.slug}>
                {s.name}, {s.countryCode}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={!value}>
          {t('search.go')}
        </button>
      </div>
      <p id={statusId} className={o.status} role="status">
        {snap.loading ? t('search.loadingStates') : snap.error ? t('search.statesError') : ''}
        {!snap.loading && snap.error && (
          <button type="button" className="btn btn-link btn-sm" onClick={() => void statesStore.load(false)}>
            {t('search.retry')}
          </button>
        )}
      </p>
    </form>
  );
}
