import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ApiError } from './api-error';

export type AlertState =
  | {
      kind: 'error';
      code: string;
      msg: string;
      reqId: string;
      /** Where OK takes the person, e.g. `/auth` after a failed token refresh. */
      redirectTo?: string;
    }
  | { kind: 'relogin'; msg: string };

export type UiState = {
  /** Calls in flight; the one global spinner shows while this is above zero. */
  pendingRequests: number;
  /** Alerts waiting to be acknowledged; the first one is on screen. */
  alerts: AlertState[];
};

const initialState: UiState = { pendingRequests: 0, alerts: [] };

export const RELOGIN_MESSAGE =
  '一定期間ご利用がなかったため、ログインの有効期限が切れました。再度ログインしてください。';

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    requestStarted(state) {
      state.pendingRequests += 1;
    },
    requestFinished(state) {
      // Never below zero, so a stray extra "finished" cannot hide a later spinner.
      state.pendingRequests = Math.max(0, state.pendingRequests - 1);
    },
    errorAlertRaised(
      state,
      action: PayloadAction<ApiError & { redirectTo?: string }>,
    ) {
      const { code, msg, reqId, redirectTo } = action.payload;
      // Several calls failing for one reason (e.g. the network) need one acknowledgement.
      if (
        state.alerts.some(
          (a) => a.kind === 'error' && a.code === code && a.msg === msg,
        )
      )
        return;
      state.alerts.push({
        kind: 'error',
        code,
        msg,
        reqId,
        ...(redirectTo ? { redirectTo } : {}),
      });
    },
    reloginAlertRaised(state) {
      // One re-login prompt is enough however many calls found the session gone.
      if (!state.alerts.some((a) => a.kind === 'relogin')) {
        state.alerts.push({ kind: 'relogin', msg: RELOGIN_MESSAGE });
      }
    },
    alertDismissed(state) {
      state.alerts.shift();
    },
  },
  selectors: {
    selectSpinnerVisible: (state) => state.pendingRequests > 0,
    selectCurrentAlert: (state): AlertState | null => state.alerts[0] ?? null,
  },
});

export const {
  requestStarted,
  requestFinished,
  errorAlertRaised,
  reloginAlertRaised,
  alertDismissed,
} = uiSlice.actions;
export const { selectSpinnerVisible, selectCurrentAlert } = uiSlice.selectors;
