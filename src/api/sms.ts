import { api } from './client';
import type { smsApi as contract } from '../../contract/api/sms.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

// Every shape here is the contract's (contract/api/sms.ts), imported as types only.
type S = typeof contract;
type Token = S['GET /api/admin/get-textbelt-token'];
type UpdateToken = S['PUT /api/admin/update-textbelt-token-by-id/:id'];
type Balance = S['GET /api/admin/get-textbelt-balance/:id'];
type SendTest = S['POST /api/admin/send-textbelt-test-sms'];
type Messages = S['GET /api/admin/get-textbelt-messages'];
type RefreshStatuses = S['POST /api/admin/refresh-textbelt-statuses'];
type AskCode = S['POST /api/phone-verification'];
type ConfirmCode = S['POST /api/phone-verification/confirm'];

/** The Textbelt key record: the key masked to its last four characters, null when none is set. */
export type TextbeltToken = ResponseOf<Token>;
export type SmsMessagesPage = ResponseOf<Messages>;
export type SmsMessage = SmsMessagesPage['messages'][number];
export type SmsQuery = Required<QueryOf<Messages>>;
export type StatusRefresh = ResponseOf<RefreshStatuses>;
export type CodeSent = ResponseOf<AskCode, 202>;
export type PhoneVerified = ResponseOf<ConfirmCode>;

export const smsApi = {
  token: () => api.get<TextbeltToken>('admin/get-textbelt-token'),
  updateToken: (id: number, body: BodyOf<UpdateToken>) => api.put<ResponseOf<UpdateToken>>(`admin/update-textbelt-token-by-id/${id}`, { json: body }),
  balance: (id: number) => api.get<ResponseOf<Balance>>(`admin/get-textbelt-balance/${id}`),
  sendTest: (body: BodyOf<SendTest>) => api.post<ResponseOf<SendTest>>('admin/send-textbelt-test-sms', { json: body }),
  messages: (q: SmsQuery) => api.get<SmsMessagesPage>('admin/get-textbelt-messages', { searchParams: q }),
  refreshStatuses: () => api.post<StatusRefresh>('admin/refresh-textbelt-statuses', { json: {} }),
};

export const phoneApi = {
  askCode: (body: BodyOf<AskCode>) => api.post<CodeSent>('phone-verification', { json: body }),
  confirm: (body: BodyOf<ConfirmCode>) => api.post<PhoneVerified>('phone-verification/confirm', { json: body }),
};
