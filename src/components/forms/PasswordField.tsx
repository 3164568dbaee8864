import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from './TextField';

type Props = Omit<TextFieldProps, 'type' | 'after' | 'autoComplete'> & {
  /** 'current-password' for sign-in and confirmations, 'new-password' where one is chosen. */
  autoComplete: 'current-password' | 'new-password';
};

/** A password input with a show/hide toggle (typing a long password blind invites mistakes). */
export function PasswordField(props: Props) {
  const { t } = useTranslation('auth');
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      spellCheck={false}
      autoCapitalize="off"
      after={
        // A toggle keeps one name and says its state with aria-pressed ("Show password, pressed": it is shown).
        <button type="button" className="btn btn-sm btn-white" aria-pressed={shown} onClick={() => setShown(!shown)}>
          {t('showPassword')}
        </button>
      }
    />
  );
}
