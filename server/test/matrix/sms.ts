import type { MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [];
