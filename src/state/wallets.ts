import { createResource, sessionCheck } from './resource';
import { walletsApi, PROMO_WALLET, type Wallet } from '../api/wallets';
import { ApiError } from '../api/client';
import { setWalletReloader } from './socket';

/** The seed's `wallets` data area: the signed-in user's USD and promo wallets. */
export const walletsStore = createResource(async () => (await walletsApi.all()).wallets);

// A Bitcoin payment seen on the socket (received or settled) reloads the balances.
setWalletReloader(() => void walletsStore.load());

/** Puts a wallet the server just returned into the list (payment, bump, promo code…). */
export function upsertWallet(w: Wallet | undefined | null): void {
  if (!w) return;
  const list = walletsStore.state.data;
  if (!list) {
    walletsStore.state.data = [w];
    return;
  }
  const i = list.findIndex((x) => x.id === w.id);
  if (i >= 0) list[i] = w;
  else list.push(w);
}

/**
 * A failed request that got no answer of our server's (the network, the 30 s limit, a proxy's or a
 * portal's page): the server may still have done it, money moved included.
 */
export function answerLost(e: unknown): boolean {
  return !(e instanceof ApiError) || e.said === null;
}

/**
 * Whether a money action's failure may hide money moved: its answer was lost, or the server
 * refused with `doneBefore`, the code saying an earlier try (maybe the lost one) did it.
 */
export function mayHaveMoved(e: unknown, doneBefore: string): boolean {
  return answerLost(e) || (e instanceof ApiError && e.code === doneBefore);
}

/**
 * Sends a money action. A failure that may hide money moved (mayHaveMoved) reads the wallets
 * again, so the balances on screen are the server's, not the ones from before the action (unless
 * the session changed meanwhile: `unchanged`); the failure is then thrown on.
 */
export async function movingMoney<T>(doneBefore: string, unchanged: () => boolean, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    if (mayHaveMoved(e, doneBefore) && unchanged()) void walletsStore.load();
    throw e;
  }
}

export const promoWalletOf = (list: readonly Wallet[] | null) => list?.find((w) => w.walletType === PROMO_WALLET) ?? null;

export async function createPromoWallet(): Promise<Wallet> {
  const unchanged = sessionCheck();
  const { wallet } = await walletsApi.createPromo();
  if (unchanged()) upsertWallet(wallet);
  return wallet;
}

/** A promo code's refusal saying this user's earlier try (maybe one whose answer was lost) credited it. */
export const PROMO_ALREADY_USED = 'wallet.promo_code_already_used';

/**
 * Redeems a promo code; creates the promo wallet first when the user has none yet. A user who
 * signed out meanwhile sees nothing of it, and the code is not sent for the next one. A lost
 * answer or "already used" reads the wallets again: the code may have been credited (a retry
 * after a lost answer is refused as already used), and the balance shows it.
 */
export async function addPromoCode(code: string): Promise<Wallet> {
  const unchanged = sessionCheck();
  return movingMoney(PROMO_ALREADY_USED, unchanged, async () => {
    if (!promoWalletOf(walletsStore.state.data)) {
      const created = await createPromoWallet();
      if (!unchanged()) return created;
    }
    const { wallet } = await walletsApi.addPromoCode({ code });
    if (unchanged()) upsertWallet(wallet);
    return wallet;
  });
}

/** E-mails the one-time welcome code; answers the address it went to. */
export async function emailWelcomePromoCode(): Promise<string> {
  return (await walletsApi.emailPromoCode()).email;
}
