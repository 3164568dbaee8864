import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../api/client';
import { submitReport } from '../../state/reports';
import type { NewReport } from '../../api/reports';
import type { ErrorCode } from '../../../contract/errors/index.ts';

/** The reports' own per-address limit (not the API-wide one, which has its own message). */
const TOO_MANY_REPORTS: ErrorCode = 'reports.too_many';

/** A labelled control with its hint and error, wired with aria-describedby and aria-invalid. */
export function Field({ label, hint, error, required, children }: {
  label: string;
  hint?: string;
  error?: string | null;
  required?: boolean;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean; required?: boolean }) => ReactNode;
}) {
  const { t } = useTranslation('pages');
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
        {required && <span className="visually-hidden"> ({t('forms.required')})</span>}
      </label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined, required })}
      {hint && (
        <span id={`${id}-hint`} style={{ fontSize: 13, color: '#5f5865' }}>
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

export type SendState = { status: 'idle' | 'sending' | 'sent' } | { status: 'error'; message: string };

/**
 * Sends a report form and keeps its state; the reports' hourly limit gets its own translated text.
 * A failure is kept as the error and worded at each render, in the page's language of the moment:
 * a language switch re-words it.
 */
export function useReportForm() {
  const { t } = useTranslation('pages');
  const [state, setState] = useState<{ status: 'idle' | 'sending' | 'sent' } | { status: 'error'; error: unknown }>({ status: 'idle' });
  const send = async (body: NewReport) => {
    setState({ status: 'sending' });
    try {
      await submitReport(body);
      setState({ status: 'sent' });
    } catch (e) {
      setState({ status: 'error', error: e });
    }
  };
  // errorMessage: a gateway's HTML page or a lost connection reads 'Something went wrong.' in the
  // page's language, never ky's English with the request's URL.
  const shown: SendState =
    state.status !== 'error'
      ? state
      : {
          status: 'error',
          message:
            state.error instanceof ApiError && state.error.code === TOO_MANY_REPORTS ? t('forms.tooMany') : t('forms.error', { message: errorMessage(state.error) }),
        };
  return { state: shown, send, reset: () => setState({ status: 'idle' }) };
}

/** The translated confirmation shown in place of a sent form; focus moves to it. */
export function SentNotice({ text, onAgain }: { text: string; onAgain: () => void }) {
  const { t } = useTranslation('pages');
  return (
    <div className="alert alert-success" role="status" tabIndex={-1} ref={(el) => el?.focus()}>
      <p style={{ margin: '0 0 8px' }}>{text}</p>
      <button type="button" className="btn btn-sm btn-white" onClick={onAgain}>
        {t('forms.sendAnother')}
      </button>
    </div>
  );
}

/** Focuses the first invalid control of a form after a refused submit. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
