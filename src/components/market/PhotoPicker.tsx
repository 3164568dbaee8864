import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilePreview } from '../forms/FilePreview';
import { PHOTO_TYPES, PHOTOS_MAX, RULES, photoHeaderProblem, photoProblem } from './adForm';
import { useFocusAfterRemoval } from '../../lib/focus-after-removal';
import styles from './market.module.css';

interface Props {
  files: File[];
  onChange: (files: File[]) => void;
  error?: string | null;
  /** How many new files may be added (the edit screen counts the photos it keeps). */
  max?: number;
  label?: string;
}

/** Picks 1–10 photos with previews and a remove button each; files that break a rule are refused with a message. */
export function PhotoPicker({ files, onChange, error, max = PHOTOS_MAX, label }: Props) {
  const { t } = useTranslation('market');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<string[]>([]);
  // The files as last rendered: a pick is added once its headers are read, after any picked meanwhile.
  const current = useRef(files);
  useEffect(() => {
    current.current = files;
  }, [files]);
  // A photo's Remove button leaves with it: focus goes to the next or previous photo's Remove, else to the file input.
  const { list: previews, removed } = useFocusAfterRemoval<HTMLUListElement>(files, input);
  const remove = (i: number) => {
    removed(i);
    onChange(files.filter((_, j) => j !== i));
  };

  async function add(list: FileList | null) {
    if (!list) return;
    const picked = Array.from(list);
    if (input.current) input.current.value = ''; // the same file may be picked again after removal
    // The header says what the server would refuse after the whole upload (over 40 MP, not an image).
    const problems = await Promise.all(picked.map(async (f) => photoProblem(f) ?? (await photoHeaderProblem(f))));
    const ok: File[] = [];
    const no: string[] = [];
    picked.forEach((f, i) => {
      const p = problems[i];
      if (p) no.push(t(p.key, p.values));
      else if (current.current.length + ok.length >= max) no.push(t('rules.tooManyPhotos', { name: f.name, max: PHOTOS_MAX }));
      else ok.push(f);
    });
    setRefused(no);
    if (ok.length) onChange([...current.current, ...ok]);
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label ?? t('form.photos')}</label>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        accept={PHOTO_TYPES.join(',')}
        onChange={(e) => void add(e.target.files)}
        aria-describedby={`${id}-hint${error ? ` ${id}-e` : ''}`}
        aria-invalid={error ? true : undefined}
      />
      <small id={`${id}-hint`}>{t(RULES.photos.key, RULES.photos.values)}</small>
      {error && (
        <span id={`${id}-e`} className="field-error">
          {error}
        </span>
      )}
      {refused.length > 0 && (
        <ul role="alert" className="field-error">
          {refused.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <ul ref={previews} className={styles.previews} aria-label={t('form.selectedPhotos', { count: files.length })}>
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`}>
              <FilePreview file={f} alt={t('form.previewOf', { name: f.name })} />
              <span>{f.name}</span>
              <button type="button" className="btn btn-sm btn-white" aria-label={t('form.removePhoto', { name: f.name })} data-remove onClick={() => remove(i)}>
                {t('form.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
