import type { TFunction } from 'i18next';

/**
 * How long something took, in the page's language (admin locale, cronJobs.duration*): ms under a
 * second, tenths of seconds under a minute, then minutes and seconds. The whole is rounded before
 * it is split, so 119.6 s reads "2 min 0 s", never "1 min 60 s". Null: still running ("—").
 */
export function durationLabel(t: TFunction, lang: string, ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return t('admin:cronJobs.durationMs', { n: ms });
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return t('admin:cronJobs.durationSeconds', { n: (tenths / 10).toLocaleString(lang, { maximumFractionDigits: 1 }) });
  const seconds = Math.round(ms / 1000);
  return t('admin:cronJobs.durationMinutes', { m: Math.floor(seconds / 60), s: seconds % 60 });
}
