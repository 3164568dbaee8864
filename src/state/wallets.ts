import { createResource, sessionCheck } from './resource';
import { walletsApi, PROMO_WALLET, type Wallet } from '../api/wallets';
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

export const promoWalletOf = (list: readonly Wallet[] | null) => list?.find((w) => w.walletType === PROMO_WALLET) ?? null;

export async function createPromoWallet(): Promise<Wallet> {
  const unchanged = sessionCheck();
  const { wallet } = await walletsApi.createPromo();
  if (unchanged()) upsertWallet(wallet);
  return wallet;
}

/**
 * Redeems a promo code; creates the promo wallet first when the user has none yet. A user who
 * signed out meanwhile sees nothing of it, and the code is not sent for the next one.
 */
export async function addPromoCode(code: string): Promise<Wallet> {
  const unchanged = sessionCheck();
  if (!promoWalletOf(walletsStore.state.data)) {
    const created = await createPromoWallet();
    if (!unchanged()) return created;
  }
  const { wallet } = await walletsApi.addPromoCode({ code });
  if (unchanged()) upsertWallet(wallet);
  return wallet;
}

/** E-mails the one-time welcome code; answers the address it went to. */
export async function emailWelcomePromoCode(): Promise<string> {
  return (await walletsApi.emailPromoCode()).email;
}
