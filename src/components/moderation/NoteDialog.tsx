import { useState, type FormEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../market/Dialog';
import { TextAreaField } from '../forms/TextAreaField';
import { SubmitButton } from '../forms/SubmitButton';
import styles from '../market/market.module.css';

// The server's limits of a hold's reason and of a note (contract/api/moderation.ts), shown before submit.
export const TEXT_MIN = 3;
export const TEXT_MAX = 1000;

/**
 * Asks for the text an action needs (a legal hold's reason, a release or closing note) before it
 * is done: the dialog names the action and its subject; the server's refusal shows inside it. Its
 * submit keeps focus (and ignores presses) while the action runs.
 */
export function NoteDialog({
  title,
  label,
  confirmLabel,
  busy,
  error,
  danger,
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
  children?: ReactNode;
  onConfirm: (text: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('moderation');
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const bad = text.trim().length < TEXT_MIN || text.trim().length > TEXT_MAX;
  function submit(e: FormEvent) {
    e.preventDefault();
    // The rule turns into the error (and describes the note) before the note takes focus: a screen reader hears it there.
    flushSync(() => setTried(true));
    if (bad) document.getElementById('moderation-note')?.focus();
    else onConfirm(text.trim());
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
          maxLength={TEXT_MAX}
          onChange={setText}
          hint={t('dialog.length', { min: TEXT_MIN, max: TEXT_MAX })}
          hintIsError={tried && bad}
        />
        {error && (
          <div role="alert" className="alert alert-error">
            {error}
          </div>
        )}
        <div className={styles.actions}>
          <button type="button" className="btn btn-white" onClick={onCancel}>
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
