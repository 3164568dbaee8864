import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { shownError } from '../../api/client';
/** A form's outcome: errors are alerts (announced at once), successes are polite status messages. */
export function FormError({ message, id }: { message: string | Error | null | undefined; id?: string }) {
  useTranslation(); // a kept error is worded at render: re-render (re-word) on a language switch
  if (!message) return null;
  return (
    <div role="alert" className="alert alert-error" id={id}>
      {shownError(message)}
    </div>
  );
}

/** `focus`: takes keyboard focus when shown, for a success that removed the button pressed (focus is not lost to <body>). */
export function FormSuccess({ message, focus }: { message: string | null | undefined; focus?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = !!message;
  // Once when it appears, not at each render: typing elsewhere re-renders the form.
  useEffect(() => {
    if (focus && shown) ref.current?.focus();
  }, [focus, shown]);
  if (!message) return null;
  return (
    <div role="status" className="alert alert-success" ref={ref} tabIndex={focus ? -1 : undefined}>
      {message}
    </div>
  );
}
