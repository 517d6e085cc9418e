import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { apiError } from '@/testing/msw';
import {
  alertDismissed,
  errorAlertRaised,
  reloginAlertRaised,
  requestFinished,
  requestStarted,
  selectCurrentAlert,
  selectSpinnerVisible,
} from '../ui-slice';

describe('ui slice: global spinner', () => {
  it('is hidden with nothing in flight', () => {
    const store = makeStore();
    expect(selectSpinnerVisible(store.getState())).toBe(false);
  });

  it('shows once for several calls and hides only when all have finished', () => {
    const store = makeStore();
    store.dispatch(requestStarted());
    store.dispatch(requestStarted());
    store.dispatch(requestStarted());
    expect(selectSpinnerVisible(store.getState())).toBe(true);
    expect(store.getState().ui.pendingRequests).toBe(3);
    store.dispatch(requestFinished());
    store.dispatch(requestFinished());
    expect(selectSpinnerVisible(store.getState())).toBe(true);
    store.dispatch(requestFinished());
    expect(selectSpinnerVisible(store.getState())).toBe(false);
  });

  it('never counts below zero, so an extra finish cannot hide a later call', () => {
    const store = makeStore();
    store.dispatch(requestFinished());
    expect(store.getState().ui.pendingRequests).toBe(0);
    store.dispatch(requestStarted());
    expect(selectSpinnerVisible(store.getState())).toBe(true);
  });
});

describe('ui slice: alerts', () => {
  const ng = apiError('NotFound', { reqId: 'r1' });

  it('queues error alerts, shows the first, and drops exact duplicates', () => {
    const store = makeStore();
    store.dispatch(errorAlertRaised(ng));
    store.dispatch(errorAlertRaised({ ...ng, reqId: 'r2' }));
    store.dispatch(
      errorAlertRaised({
        ...ng,
        code: 'Forbidden',
        msg: 'この操作を行う権限がありません。',
      }),
    );
    expect(store.getState().ui.alerts).toHaveLength(2);
    expect(selectCurrentAlert(store.getState())).toMatchObject({
      kind: 'error',
      code: 'NotFound',
    });
    store.dispatch(alertDismissed());
    expect(selectCurrentAlert(store.getState())).toMatchObject({
      code: 'Forbidden',
    });
    store.dispatch(alertDismissed());
    expect(selectCurrentAlert(store.getState())).toBeNull();
  });

  it('keeps a single re-login alert with the seed message', () => {
    const store = makeStore();
    store.dispatch(reloginAlertRaised());
    store.dispatch(reloginAlertRaised());
    expect(store.getState().ui.alerts).toEqual([
      {
        kind: 'relogin',
        msg: '一定期間ご利用がなかったため、ログインの有効期限が切れました。再度ログインしてください。',
      },
    ]);
  });
});
