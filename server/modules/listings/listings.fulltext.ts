// A search's matches as the full-text index (FTS5) reads them, an expression it refuses read as none.
import type { AppDeps } from '../../core/deps.ts';
import type { PublicReads } from './listings.repository.ts';
import { packSeqs, type Seqs } from './listings.search.ts';

/**
 * A search's matches; null when FTS5 refused the expression. searchWords() mirrors its tokenizer,
 * so this should not happen, but a visitor's text must never answer 500: such a search answers
 * no ads, kept nowhere, and the warning says which expression to look into.
 */
export function searchSeqs(reads: PublicReads, log: AppDeps['log'], match: string, limit: number): Seqs | null {
  try {
    return packSeqs(reads.searchSeqs(match, limit));
  } catch (err) {
    // FTS5's own refusals of the expression only: any other error is the server's (a 500).
    if (!(err instanceof Error && err.name === 'SqliteError' && err.message.startsWith('fts5:'))) throw err;
    log.warn({ err, match }, 'search: full-text query refused');
    return null;
  }
}
