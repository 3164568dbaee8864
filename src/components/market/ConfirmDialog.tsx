import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import { BusyButton } from '../forms/BusyButton';
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

/** "Are you sure?" before an action that cannot be undone; the confirm keeps focus (and ignores presses) while it runs. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel, busy, danger }: Props) {
  const { t } = useTranslation('market');
  return (
    <Dialog title={title} onClose={onCancel}>
      {children}
      <div className={styles.actions}>
        <button type="button" className="btn btn-white" onClick={onCancel}>
          {t('cancel')}
        </button>
        <BusyButton className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onConfirm} busy={!!busy}>
          {confirmLabel}
        </BusyButton>
      </div>
    </Dialog>
  );
}
