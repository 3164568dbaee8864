import { useState, type FormEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../market/Dialog';
import { TextAreaField } from '../forms/TextAreaField';
import { SubmitButton } from '../forms/SubmitButton';
import { useKeptFields } from './useKeptFields';
import styles from '../market/market.module.css';

// The server's limits of a hold's reason and of a note (contract/api/moderation.ts), shown before submit.
export const TEXT_MIN = 3;
export const TEXT_MAX = 1000;

const EMPTY = { text: '' };
const typed = (f: typeof EMPTY) => f.text.trim() !== '';

/**
 * Asks for the text an action needs (a legal hold's reason, a release or closing note) before it
 * is done: the dialog names the action and its subject; the server's refusal shows inside it. Its
 * submit keeps focus (and ignores presses) while the action runs. Given `keepAs` (the action and
 * its subject: 'close:<report id>', 'hold:ad:<id>'…), what is typed is kept in the tab until it is
 * sent or the dialog is left through Cancel (useKeptFields): Escape, a click beside the dialog or a
 * session that ends on the way do not lose it. A text pasted over the limit stays whole, and says
 * it is too long.
 */
export function NoteDialog({
  title,
  label,
  confirmLabel,
  busy,
  error,
  danger,
  keepAs,
  children,
  onConfirm,
  onCancel,
}: {
  title: ReactNode;
  label: string;
  confirmLabel: string;
  busy: boolean;
  error: string | null;
  danger?: boolean;
  /** The action and its subject, under which the text typed is kept until sent. */
  keepAs?: string;
  children?: ReactNode;
  onConfirm: (text: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('moderation');
  const kept = useKeptFields(keepAs, EMPTY, typed, { busy, error });
  const { text } = kept.fields;
  const [tried, setTried] = useState(false);
  const tooLong = text.trim().length > TEXT_MAX;
  const bad = text.trim().length < TEXT_MIN || tooLong;
  function submit(e: FormEvent) {
    e.preventDefault();
    // The rule turns into the error (and describes the note) before the note takes focus: a screen reader hears it there.
    flushSync(() => setTried(true));
    if (bad) document.getElementById('moderation-note')?.focus();
    else {
      kept.confirmed();
      onConfirm(text.trim());
    }
  }
  function cancel() {
    kept.cancelled();
    onCancel();
  }
  return (
    <Dialog title={title} onClose={onCancel}>
      {children}
      <form onSubmit={submit} noValidate>
        <TextAreaField
          id="moderation-note"
          label={label}
          rows={3}
          value={text}
          // Room over the limit (as the ad title's field): a longer paste is kept whole, and the rule says it is too long.
          maxLength={2 * TEXT_MAX}
          onChange={(x) => kept.set({ text: x })}
          hint={t('dialog.length', { min: TEXT_MIN, max: TEXT_MAX })}
          hintIsError={(tried && bad) || tooLong}
        />
        {error && (
          <div role="alert" className="alert alert-error">
            {error}
          </div>
        )}
        <div className={styles.actions}>
          <button type="button" className="btn btn-white" onClick={cancel}>
            {t('dialog.cancel')}
          </button>
          <SubmitButton busy={busy} variant={danger ? 'danger' : 'primary'}>
            {confirmLabel}
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
