import type {
  CodeSendInput,
  HandshakeResult,
  LoginInput,
  LoginResult,
  PasswordUpdateInput,
  TermsAcceptance,
  TermsAcceptInput,
  UserCreateInput,
} from '@proam/contract';
import { api, postArg } from '@/lib/api';
import { termsAgreed, tokenReceived } from './auth-slice';

type Sent = { sent: true };

/** Login and registration hand out a token; storing it starts the session. */
const receiveToken = async (
  _arg: unknown,
  {
    dispatch,
    queryFulfilled,
  }: {
    dispatch: (action: unknown) => unknown;
    queryFulfilled: Promise<{ data: LoginResult }>;
  },
) => {
  try {
    const { data } = await queryFulfilled;
    dispatch(tokenReceived(data));
  } catch {
    // The base query has already reported the failure.
  }
};

/**
 * The authentication calls of docs/api.md. The refresh-token calls are silent:
 * the session code (auth-session.ts) decides which alert they deserve.
 */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResult, LoginInput>({
      query: postArg('/auth/login', { auth: 'client' }),
      onQueryStarted: receiveToken,
    }),
    createUser: build.mutation<LoginResult, UserCreateInput>({
      query: postArg('/user/create', { auth: 'none' }),
      onQueryStarted: receiveToken,
    }),
    handshake: build.mutation<HandshakeResult, void>({
      query: () => ({ path: '/auth/handshake', auth: 'refresh', silent: true }),
    }),
    refresh: build.mutation<LoginResult, void>({
      query: () => ({ path: '/auth/refresh', auth: 'refresh', silent: true }),
    }),
    logout: build.mutation<{ loggedOut: true }, void>({
      query: () => ({ path: '/auth/logout', auth: 'refresh', silent: true }),
    }),
    sendCode: build.mutation<Sent, CodeSendInput>({
      query: postArg('/auth/code', { auth: 'none' }),
    }),
    sendResetCode: build.mutation<Sent, CodeSendInput>({
      query: postArg('/auth/code/reset', { auth: 'none' }),
    }),
    updatePassword: build.mutation<{ updated: true }, PasswordUpdateInput>({
      query: postArg('/auth/update', { auth: 'client' }),
    }),
    /** The member agrees to the 利用規約 in force; the session user then says so. */
    acceptTerms: build.mutation<TermsAcceptance, TermsAcceptInput>({
      query: postArg('/user/acceptTerms'),
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        try {
          await queryFulfilled;
          dispatch(termsAgreed());
        } catch {
          // The base query has already reported the failure.
        }
      },
    }),
  }),
});

export const {
  useLoginMutation,
  useCreateUserMutation,
  useLogoutMutation,
  useSendCodeMutation,
  useSendResetCodeMutation,
  useUpdatePasswordMutation,
  useAcceptTermsMutation,
} = authApi;
