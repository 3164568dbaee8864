import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkNickname, type RuleKey } from '../../../../contract/rules';
import { updateNickname } from '../../../state/profile';
import { TextField } from '../../../components/forms/TextField';
import { FormError, FormSuccess } from '../../../components/forms/FormError';
import { SubmitButton } from '../../../components/forms/SubmitButton';
import { useFormAction } from '../../../components/forms/useFormAction';

export function NicknameForm({ current }: { current: string }) {
  const { t } = useTranslation(['profile', 'validation']);
  const [nickname, setNickname] = useState(current);
  // The rule broken, kept as its key and worded at render: a language switch re-words it.
  const [rule, setRule] = useState<RuleKey | null>(null);
  const action = useFormAction('profile');
  // A new saved nickname replaces what is in the field, set while rendering (React's way for
  // state that follows a prop) rather than one render late.
  const [shown, setShown] = useState(current);
  if (shown !== current) {
    setShown(current);
    setNickname(current);
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const key = checkNickname(nickname.trim());
    setRule(key);
    if (key) return document.getElementById('profile-nickname')?.focus();
    await action.run(
      () => updateNickname(nickname),
      (t) => t('nickname.saved'),
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="nickname-title" className="card">
      <h2 id="nickname-title">{t('nickname.title')}</h2>
      <FormError message={action.error} />
      <FormSuccess message={action.success} />
      <TextField
        id="profile-nickname"
        label={t('nickname.label')}
        autoComplete="nickname"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={30}
        required
        value={nickname}
        error={rule && t(`validation:${rule}`)}
        onChange={setNickname}
      />
      <SubmitButton busy={action.busy} busyLabel={t('saving')} disabled={nickname.trim() === current}>
        {t('nickname.submit')}
      </SubmitButton>
    </form>
  );
}
