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

export function FormSuccess({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div role="status" className="alert alert-success">
      {message}
    </div>
  );
}
