import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** A translated message shown under the field and announced with it. */
  error?: string | null;
  hint?: ReactNode;
  /** The hint states the rule being broken: show it as the error (red) and mark the field invalid. */
  hintIsError?: boolean;
}

/** TextField's twin for multi-line text: always labelled, hint and error tied to the field for screen readers. */
export function TextAreaField({ label, value, onChange, error, hint, hintIsError, id, ...rest }: TextAreaFieldProps) {
  const auto = useId();
  const fieldId = id ?? `f${auto}`;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <textarea
        {...rest}
        id={fieldId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error || hintIsError ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <small id={hintId} className={hintIsError ? 'field-error' : undefined} style={hintIsError ? undefined : { color: 'var(--gray)' }}>
          {hint}
        </small>
      )}
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
