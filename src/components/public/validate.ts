import { checkEmail } from '../../../contract/rules';
import { REPORT_MESSAGE_MAX, REPORT_MESSAGE_MIN } from '../../api/reports';

/** The server's report rules, as keys of the 'pages' namespace (forms.*). */
export function messageError(v: string): string | null {
  const n = v.trim().length;
  if (n < REPORT_MESSAGE_MIN) return 'forms.messageShort';
  if (n > REPORT_MESSAGE_MAX) return 'forms.messageLong';
  return null;
}

export function emailError(v: string): string | null {
  return checkEmail(v.trim()) ? 'forms.emailInvalid' : null;
}
