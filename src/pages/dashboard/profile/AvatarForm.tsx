import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkAvatarFile, updateAvatar } from '../../../state/profile';
import { AVATAR_TYPES } from '../../../api/profile';
import { FormError, FormSuccess } from '../../../components/forms/FormError';
import { SubmitButton } from '../../../components/forms/SubmitButton';
import { FilePreview } from '../../../components/forms/FilePreview';
import { useFormAction } from '../../../components/forms/useFormAction';

/** Picks an image, checks type and size before sending it (up to 10 MB), previews it, uploads it. */
export function AvatarForm() {
  const { t } = useTranslation('profile');
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const action = useFormAction('profile');

  function onPick(picked: File | null) {
    action.setSuccess(null);
    action.setError(null);
    const key = picked ? checkAvatarFile(picked) : null;
    setProblem(key && t(key));
    setFile(key ? null : picked);
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!file) return setProblem(t('avatar.choose'));
    const ok = await action.run(
      async () => {
        await updateAvatar(file);
        return true;
      },
      (t) => t('avatar.saved'),
    );
    if (ok) setFile(null);
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="avatar-title" className="card">
      <h2 id="avatar-title">{t('avatar.title')}</h2>
      <FormError message={action.error} />
      <FormSuccess message={action.success} />
      <div className="field">
        <label htmlFor={inputId}>{t('avatar.label')}</label>
        <input
          id={inputId}
          type="file"
          accept={AVATAR_TYPES.join(',')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${inputId}-hint${problem ? ` ${inputId}-error` : ''}`}
          onChange={(e) => onPick(e.target.files?.[0] ?? null)}
        />
        <small id={`${inputId}-hint`} style={{ color: 'var(--gray)' }}>
          {t('avatar.hint')}
        </small>
        {/* An alert as well: focus is already on the input, and a new description of it is not read out. */}
        {problem && (
          <span id={`${inputId}-error`} role="alert" className="field-error">
            {problem}
          </span>
        )}
      </div>
      {file && (
        <FilePreview
          file={file}
          alt={t('avatar.previewAlt')}
          width={120}
          height={120}
          style={{ objectFit: 'cover', borderRadius: '50%', display: 'block', marginBottom: 12 }}
        />
      )}
      <SubmitButton busy={action.busy} busyLabel={t('avatar.uploading')} disabled={!file}>
        {t('avatar.submit')}
      </SubmitButton>
    </form>
  );
}
