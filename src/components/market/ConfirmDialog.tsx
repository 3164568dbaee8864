import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import styles from './market.module.css';

interface Props {
  title: ReactNode;
  children?: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
}

/** "Are you sure?" before an action that cannot be undone. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel, busy, danger }: Props) {
  const { t } = useTranslation('market');
  return (
    <Dialog title={title} onClose={onCancel}>
      {children}
      <div className={styles.actions}>
        <button type="button" className="btn btn-white" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
