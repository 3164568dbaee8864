import Database from 'better-sqlite3';

// Shared by the backup and restore tests (not a test file).

/** How many audit rows a database file holds: the tests' mark of which copy a file is. */
export function auditRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n;
  } finally {
    db.close();
  }
}
