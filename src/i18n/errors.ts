import type { ErrorParams } from '../../contract/errors/index.ts';
import { fieldLabelKey } from '../../contract/errors/fields.ts';

// The 'errors' namespace: English is the contract's own catalogue (the server's messages), Spanish
// and Portuguese are one file per domain under locales/{lng}/errors/. Keys are the codes
// themselves ("wallet.insufficient_funds"), looked up flat.

const translated = import.meta.glob<Record<string, string>>('./locales/*/errors/*.json', { import: 'default' });

export async function loadErrorMessages(lng: string): Promise<Record<string, string>> {
  if (lng === 'en') return { ...(await import('../../contract/errors/index.ts')).ERRORS };
  const files = Object.entries(translated).filter(([p]) => p.startsWith(`./locales/${lng}/errors/`));
  return Object.assign({}, ...(await Promise.all(files.map(([, load]) => load()))));
}

type T = (key: string, opts: Record<string, unknown>) => string;

/** The message of an error answer in the page's language; the server's English when a code is unknown here. */
export function translateError(t: T, code: string, params: ErrorParams | undefined, fallback: string): string {
  const values: Record<string, unknown> = { ...params };
  // A field is named by its path (adIds.0, text.en) and shown by its label: contract/errors/fields.ts.
  if (typeof values.field === 'string') values.field = t(fieldLabelKey(values.field), { ns: 'errors', defaultValue: values.field });
  // A schema refusal names its rule: worded here, in place of the server's English reason.
  if (typeof values.rule === 'string') values.reason = t(`rule.${values.rule}`, { ns: 'errors', limit: values.limit, defaultValue: values.reason });
  return t(code, { ns: 'errors', ...values, defaultValue: fallback });
}
