// The user screen's dialogs: suspend or reinstate the account, place a hold on it, release a hold.
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Snapshot } from 'valtio';
import { shownError } from '../../api/client';
import type { HoldTarget, UserDetail } from '../../api/moderation';
import { usersApi } from '../../api/users';
import { placeHold, releaseHold } from '../../state/moderation';
import { FormError } from '../../components/forms/FormError';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { NoteDialog } from '../../components/moderation/NoteDialog';

export type Dialog =
  | { kind: 'status'; to: 'suspended' | 'approved' }
  | { kind: 'hold' }
  | { kind: 'release'; hold: { id: string; targetType: HoldTarget; targetId: string } }
  | null;
/** What an action did, worded at each render with the page's t: a language switch re-words it. */
export type Done = { word: (t: TFunction<['moderation', 'payments']>) => string };

type Props = {
  dialog: Dialog;
  u: Snapshot<UserDetail>['user'];
  name: string;
  busy: boolean;
  actionError: Error | null;
  close: () => void;
  run: (action: () => Promise<unknown>, message: Done['word']) => Promise<void>;
};

export function UserDialogs({ dialog, u, name, busy, actionError, close, run }: Props) {
  const { t } = useTranslation(['moderation', 'payments']);
  return (
    <>
      {dialog?.kind === 'status' && (
        <ConfirmDialog
          title={dialog.to === 'suspended' ? t('user.suspendTitle', { name }) : t('user.reinstateTitle', { name })}
          confirmLabel={dialog.to === 'suspended' ? t('user.suspendConfirm') : t('user.reinstateConfirm')}
          danger={dialog.to === 'suspended'}
          busy={busy}
          onCancel={close}
          onConfirm={() =>
            run(
              () => usersApi.updateStatus({ userId: u.id, status: dialog.to, from: u.status }),
              (tr) => tr('user.statusDone', { name, status: tr(`userStatus.${dialog.to}`) }),
            )
          }
        >
          <p>{t('user.statusChange', { from: t(`userStatus.${u.status}`), to: t(`userStatus.${dialog.to}`) })}</p>
          <p>{dialog.to === 'suspended' ? t('user.suspendEffect') : t('user.reinstateEffect')}</p>
          <FormError message={actionError} />
        </ConfirmDialog>
      )}
      {dialog?.kind === 'hold' && (
        <NoteDialog
          keepAs={`hold:user:${u.id}`}
          title={t('holds.placeTitle', { name })}
          label={t('holds.reasonLabel')}
          confirmLabel={t('holds.placeConfirm')}
          busy={busy}
          error={shownError(actionError)}
          onCancel={close}
          onConfirm={(reason) =>
            run(
              () => placeHold('user', u.id, reason),
              (tr) => tr('holds.placeDone', { name }),
            )
          }
        >
          <p>{t('holds.explain')}</p>
        </NoteDialog>
      )}
      {dialog?.kind === 'release' && (
        <NoteDialog
          keepAs={`release:${dialog.hold.id}`}
          title={dialog.hold.targetType === 'user' ? t('holds.releaseTitle', { name }) : t('holds.releaseAdTitle', { id: dialog.hold.targetId })}
          label={t('holds.noteLabel')}
          confirmLabel={t('holds.releaseConfirm')}
          danger
          busy={busy}
          error={shownError(actionError)}
          onCancel={close}
          onConfirm={(note) =>
            run(
              () => releaseHold(dialog.hold, note),
              (tr) => tr('holds.releaseDone'),
            )
          }
        >
          <p>{t('holds.releaseEffect')}</p>
        </NoteDialog>
      )}
    </>
  );
}
