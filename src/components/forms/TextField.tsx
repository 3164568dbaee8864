import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** A translated message shown under the field and announced with it. */
  error?: string | null;
  hint?: ReactNode;
  /** Extra content after the input inside the field (e.g. a show-password toggle). */
  after?: ReactNode;
  /** The id of a message shown elsewhere that is about this field (the server's refusal of it): the input is invalid and described by it. */
  refusedBy?: string | null;
  /** The input itself (useTypedBeforeHydration reads what was typed in it before hydration). */
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input: the label is always present, the error is tied to the input for screen readers. */
export function TextField({ label, value, onChange, error, hint, after, refusedBy, id, type = 'text', ref, ...rest }: TextFieldProps) {
  const auto = useId();
  const inputId = id ?? `f${auto}`;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, refusedBy ?? null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div style={{ display: 'flex', gap: 6 }}>
        <input
          {...rest}
          ref={ref}
          id={inputId}
          type={type}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error || refusedBy ? true : undefined}
          aria-describedby={describedBy}
          style={{ flex: 1, minWidth: 0 }}
        />
        {after}
      </div>
      {hint && (
        <small id={hintId} style={{ color: 'var(--gray)' }}>
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
