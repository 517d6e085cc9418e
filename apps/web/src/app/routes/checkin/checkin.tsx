import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppDispatch } from '@/lib/store-hooks';
import { PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import { tokenReceived } from '@/features/auth/auth-slice';
import {
  writeCheckinRecord,
  type CheckinRecord,
  type CheckinResult,
} from '@/features/auth/buyer-mode';
import { checkinApi } from '@/features/auth/checkin-api';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { isApiError } from '@/lib/api-error';
import type { AppDispatch } from '@/app/store';

export const INVALID_LINK_MESSAGE =
  'このリンクは無効か、有効期限が切れています。購買システムからもう一度アクセスしてください。';

type Outcome =
  | { kind: 'done'; record: CheckinRecord }
  | { kind: 'invalid' }
  | { kind: 'failed' };

/**
 * A ticket works once, so each is redeemed once per page load whatever the
 * component does (StrictMode runs effects twice).
 */
const redeemed = new Map<string, Promise<Outcome>>();

const redeem = (dispatch: AppDispatch, ticket: string): Promise<Outcome> => {
  const running = redeemed.get(ticket);
  if (running) return running;
  const run = (async (): Promise<Outcome> => {
    const request = dispatch(
      checkinApi.endpoints.redeemCheckin.initiate({ ticket }),
    );
    const result = await request;
    request.reset();
    if ('data' in result && result.data) {
      const { checkin, token, user }: CheckinResult = result.data;
      // The record first: a buyer's token keeps it (a member's removes it),
      // and the session's refresh reads the buyer's name from it.
      writeCheckinRecord(checkin);
      dispatch(tokenReceived({ token, user }));
      return { kind: 'done', record: checkin };
    }
    const error = 'error' in result ? result.error : undefined;
    if (
      isApiError(error) &&
      (error.code === 'InvalidCode' ||
        (error.httpStatus >= 400 && error.httpStatus < 500))
    )
      return { kind: 'invalid' };
    redeemed.delete(ticket);
    return { kind: 'failed' };
  })();
  redeemed.set(ticket, run);
  return run;
};

/** `#/checkin/:ticket`: the start page a purchasing system opens (punch-out). */
const CheckinRoute = () => {
  const { ticket = '' } = useParams();
  const dispatch = useAppDispatch();
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{
    key: string;
    outcome: Outcome;
  } | null>(null);
  useDocumentTitle('チェックイン');
  const wellFormed = /^[A-Za-z0-9_-]{8,200}$/.test(ticket);
  const key = `${ticket}#${attempt}`;

  useEffect(() => {
    if (!wellFormed) return;
    let live = true;
    void redeem(dispatch, ticket).then((outcome) => {
      if (live) setResult({ key, outcome });
    });
    return () => {
      live = false;
    };
  }, [dispatch, ticket, key, wellFormed]);

  const outcome: Outcome | null = !wellFormed
    ? { kind: 'invalid' }
    : result?.key === key
      ? result.outcome
      : null;

  return (
    <div className="checkin-area">
      <PageHeader
        section="チェックイン"
        title="チェックイン"
        titleRight="CHECK-IN"
      />
      <div className="container section">
        {outcome === null ? (
          <div className="page-loading">
            <Spinner label="チェックインしています" />
          </div>
        ) : outcome.kind === 'done' ? (
          <div className="notice-card" data-testid="checkin-welcome">
            <h2 className="notice-card__lead">
              {outcome.record.punchOutSetupRequest.userName}様、ようこそ
            </h2>
            <p>
              {outcome.record.punchOutSetupRequest.buyer ? (
                <>
                  「{outcome.record.punchOutSetupRequest.buyer}
                  」の購買システムからアクセスしています。
                </>
              ) : (
                <>購買システムからアクセスしています。</>
              )}
              プロのプロフィールとラウンドレッスンをご覧いただけます（閲覧のみ）。
            </p>
            <p>
              ご覧になった後は、画面上部の「購買システムに戻る」から購買システムへお戻りください。
            </p>
            <div className="button-row">
              <Link to="/tabs/likes" className="button button--primary">
                プロを探す
              </Link>
              <Link to="/tabs/competitions" className="button button--outline">
                大会情報を見る
              </Link>
            </div>
          </div>
        ) : outcome.kind === 'invalid' ? (
          <div className="notice-card" role="alert">
            <p className="notice-card__lead">{INVALID_LINK_MESSAGE}</p>
          </div>
        ) : (
          <div className="notice-card" role="alert">
            <p className="notice-card__lead">
              チェックインできませんでした。通信環境をご確認のうえ、もう一度お試しください。
            </p>
            <div className="button-row">
              <button
                type="button"
                className="button button--primary"
                onClick={() => setAttempt((n) => n + 1)}
              >
                再試行
              </button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
};

export default CheckinRoute;
