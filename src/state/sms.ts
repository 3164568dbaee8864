import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { smsApi, type SmsMessage, type SmsQuery, type StatusRefresh, type TextbeltToken } from '../api/sms';

export const SMS_PAGE_SIZE = 20;
const initial = (): SmsQuery => ({ page: 1, pageSize: SMS_PAGE_SIZE });

/** The seed's `adminTextbeltSms` data area: the Textbelt key record (masked). */
export const adminTextbeltSmsStore = createResource(() => smsApi.token());
/** The key's remaining quota, asked of Textbelt on demand (each ask is a request to Textbelt). */
export const smsBalanceStore = createResource((id: number) => smsApi.balance(id));
/** The messages sent, newest first, and the page shown. */
export const smsMessagesStore = createResource((q: SmsQuery) => smsApi.messages(q));
export const smsQuery = proxy(initial());
onReset(() => Object.assign(smsQuery, initial()));

export function loadSmsMessages(change: Partial<SmsQuery> = {}) {
  Object.assign(smsQuery, change);
  return smsMessagesStore.load({ ...smsQuery });
}

async function tokenId(): Promise<number> {
  return adminTextbeltSmsStore.state.data?.id ?? (await smsApi.token()).id;
}

/** Sets the key (an empty one removes it); the balance shown was the old key's, so it goes. */
export async function saveTextbeltToken(token: string): Promise<TextbeltToken> {
  const unchanged = sessionCheck();
  const saved = await smsApi.updateToken(await tokenId(), { token: token.trim() });
  if (!unchanged()) return saved;
  adminTextbeltSmsStore.state.data = saved;
  smsBalanceStore.reset();
  await loadSmsMessages(); // whether messages go to Textbelt or the outbox changed
  return saved;
}

export async function checkSmsBalance(): Promise<void> {
  await smsBalanceStore.load(await tokenId());
}

/** Sends a test message, then shows the first page, where it now is. */
export async function sendTestSms(phone: string, message: string): Promise<SmsMessage> {
  const text = message.trim();
  const unchanged = sessionCheck();
  const { message: sent } = await smsApi.sendTest(text ? { phone: phone.trim(), message: text } : { phone: phone.trim() });
  if (unchanged()) await loadSmsMessages({ page: 1 });
  return sent;
}

/** Asks Textbelt where the recent messages are, then reloads the page shown. */
export async function refreshSmsStatuses(): Promise<StatusRefresh> {
  const unchanged = sessionCheck();
  const result = await smsApi.refreshStatuses();
  if (unchanged()) await loadSmsMessages();
  return result;
}
