import type { Executor } from '../../core/db.ts';

// How many rows the user page's capped lists hold in all (it shows the newest 200 of each), so
// the page can say "the last 200 of N" rather than pass part of a list for the whole.

export interface UserListTotals {
  reportsTotal: number;
  ledgerTotal: number;
  invoicesTotal: number;
  signInsTotal: number;
}

const n = (r: { n: number | bigint } | undefined) => Number(r?.n ?? 0);

/** Counts of the account's reports (about `adIds`), ledger rows of every wallet, invoices and sign-ins; each by an index. */
export async function userListTotals(db: Executor, userId: string, adIds: readonly string[]): Promise<UserListTotals> {
  const reports = adIds.length
    ? await db
        .selectFrom('reports')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ad_id', 'in', [...adIds])
        .executeTakeFirst()
    : undefined;
  const ledger = await db
    .selectFrom('ledger_entries')
    .innerJoin('wallets', 'wallets.id', 'ledger_entries.wallet_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('wallets.user_id', '=', userId)
    .executeTakeFirst();
  const invoices = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const signIns = await db
    .selectFrom('sign_ins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { reportsTotal: n(reports), ledgerTotal: n(ledger), invoicesTotal: n(invoices), signInsTotal: n(signIns) };
}
