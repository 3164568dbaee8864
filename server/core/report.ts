import type { Said } from '../../contract/api/common.ts';

/**
 * What a cron job's run came to: in plain English (the run's message: logs, the audit, older
 * clients) and as a code with its figures, which the cron jobs page words in its language (admin
 * locale, says.<code>), as the health page does a check's outcome.
 */
export interface JobReport {
  message: string;
  says: Said;
}

type Params = NonNullable<Said['params']>;
type Part = NonNullable<Said['parts']>[number];

export const jobReport = (message: string, code: string, params?: Params, parts: Part[] = []): JobReport => ({
  message,
  says: { code, ...(params ? { params } : {}), ...(parts.length ? { parts } : {}) },
});
