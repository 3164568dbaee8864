import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { isAgeConfirmed, setAgeConfirmed } from './ageConfirmation';
import { leaveNavigation, leaveTarget } from './ageGateRules';

export { isBot } from './ageGateRules';
import { useFocusTrap } from './useFocusTrap';
import { localizedPath, splitSeoLocale } from '../../../contract/seo';
import s from './overlay.module.css';

/**
 * The adult-content gate (seed §2, §4): legal terms that fold open, an agree box that stores the
 * confirmation for 30 days (unticking removes it), Continue only once ticked, and Leave.
 */
export default function AgeGate({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('public');
  const [agreed, setAgreed] = useState(isAgeConfirmed);
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const introId = useId();

  // The page behind is inert while the gate is open: no focus, no clicks, hidden from screen readers.
  // Declared before the focus trap: effects are cleaned up in declaration order, so the page is no
  // longer inert when the trap gives focus back to the field being typed in (Chromium refuses focus
  // to an inert element and leaves it on <body>). The trap still reads that field first on open:
  // the browser moves focus off a newly inert element only later, at its next rendering step.
  useEffect(() => {
    const root = document.getElementById('root');
    root?.setAttribute('inert', '');
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      root?.removeAttribute('inert');
      document.body.style.overflow = overflow;
    };
  }, []);
  useFocusTrap(ref, true);

  const toggle = (on: boolean) => {
    setAgreed(on);
    setAgeConfirmed(on);
  };
  const terms = t('ageGate.terms', { returnObjects: true }) as unknown;

  return createPortal(
    <div className={s.backdrop}>
      <div ref={ref} className={s.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={introId} tabIndex={-1}>
        <div className={s.badge18} aria-hidden="true">18+</div>
        <h2 id={titleId}>{t('ageGate.title')}</h2>
        <p id={introId}>{t('ageGate.intro')}</p>
        <details className={s.terms}>
          <summary>{t('ageGate.termsToggle')}</summary>
          {(Array.isArray(terms) ? (terms as string[]) : []).map((p) => (
            <p key={p}>{p}</p>
          ))}
          <p>
            <a href={localizedPath('/terms', splitSeoLocale(window.location.pathname).locale)} target="_blank" rel="noopener">{t('ageGate.termsLink')}</a>
          </p>
        </details>
        <label className={s.check}>
          <input type="checkbox" checked={agreed} onChange={(e) => toggle(e.target.checked)} />
          <span>{t('ageGate.agree')}</span>
        </label>
        <div className={s.actions}>
          <button type="button" className="btn btn-white" onClick={() => leaveNavigation.assign(leaveTarget(document.referrer, window.location.host))}>
            {t('ageGate.leave')}
          </button>
          <button type="button" className="btn btn-primary" disabled={!agreed} onClick={onClose}>
            {t('ageGate.continue')}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
