import { useId, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { checkSearchQuery, SEARCH_QUERY_MAX } from '../../../contract/rules';
import { routes } from '../../app/routes';
import { StatePicker } from './StatePicker';
import { useFocusTrap } from './useFocusTrap';
import { CloseIcon } from './CloseIcon';
import o from './overlay.module.css';
import l from './layout.module.css';

/** Seed §9: the overlay closes 200 ms after a submit and 1000 ms after a close action. */
export const CLOSE_AFTER_SUBMIT_MS = 200;
export const CLOSE_AFTER_CLOSE_MS = 1000;

/** The search overlay: a free-text search and a state picker. */
export default function SearchOverlay({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('public');
  const [, navigate] = useLocation();
  const [query, setQuery] = useState('');
  const [touched, setTouched] = useState(false);
  const [closing, setClosing] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const rule = checkSearchQuery(query);
  const error =
    rule === 'searchRequired'
      ? t('search.required')
      : rule === 'searchTooLong'
        ? t('search.tooLong')
        : rule === 'searchTooManyWords'
          ? t('search.tooManyWords')
          : null;

  const close = () => {
    if (closing) return;
    setClosing(true);
    setTimeout(onClose, CLOSE_AFTER_CLOSE_MS);
  };
  useFocusTrap(ref, !closing, close, input);

  const go = (to: string) => {
    navigate(to);
    setTimeout(onClose, CLOSE_AFTER_SUBMIT_MS);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (rule) return;
    go(`${routes.search}?query=${encodeURIComponent(query.trim())}`);
  };

  return (
    <div ref={ref} className={o.search} data-closing={closing} role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
      <div className={o.searchInner}>
        <button type="button" className={`${l.iconButton} ${o.closeX}`} aria-label={t('search.close')} onClick={close}>
          <CloseIcon />
        </button>
        <h2 id={`${id}-title`}>{t('search.title')}</h2>
        <div className={o.panel}>
          <form role="search" onSubmit={submit} noValidate>
            <div className={o.row}>
              <div className={`field ${o.field}`}>
                <label htmlFor={id}>{t('search.queryLabel')}</label>
                <input
                  ref={input}
                  id={id}
                  type="search"
                  name="query"
                  required
                  maxLength={SEARCH_QUERY_MAX + 50}
                  placeholder={t('search.queryPlaceholder')}
                  value={query}
                  onChange={(e) => {
                    setQuery(e.target.value);
                    setTouched(true);
                  }}
                  onBlur={() => query && setTouched(true)}
                  aria-invalid={touched && !!error}
                  aria-describedby={touched && error ? `${id}-error` : undefined}
                />
                {touched && error && (
                  <span id={`${id}-error`} className="field-error" role="alert">
                    {error}
                  </span>
                )}
              </div>
              <button type="submit" className="btn btn-primary" disabled={!!rule}>
                {t('search.submit')}
              </button>
            </div>
          </form>
        </div>
        <div className={o.panel}>
          <StatePicker onPick={(slug) => go(slug ? `${routes.listingsUs}/${slug}` : routes.listingsUs)} />
        </div>
      </div>
    </div>
  );
}
