import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Payment, PaymentStart } from '@proam/contract';
import { FocusSection } from '@/components/focus-section';
import { NoticeCard } from '@/components/notice-card';
import { PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import { paymentsEnabled, runtimeConfig } from '@/config/env';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { apiErrorOf } from '@/lib/server-errors';
import { formatDate, formatYenSuffix } from '@/lib/format';
import { PAY_AT_COURSE } from '@/lib/payment-mode';
import { useAppSelector } from '@/lib/store-hooks';
import { selectAuthUser } from '@/features/auth/auth-slice';
import {
  useGetLessonMembersQuery,
  useGetSchedulesByIdQuery,
} from '@/features/schedule/schedule-api';
import {
  paymentPath,
  useConfirmPaymentMutation,
  useStartPaymentMutation,
} from '../payment-api';
import { startPayments } from '../stripe-loader';
import { HoldCountdown } from './hold-countdown';
import { PaymentBreakdown } from './payment-breakdown';
import { PAYMENT_FAILED_MSG, startFailureMessage } from './payment-messages';
import '@/styles/booking.css';

/** Stripe's React bindings and the Payment Element come only with this step. */
const CheckoutForm = lazy(() => import('./checkout-form'));

/** How often, and how far apart, the server is asked again while Stripe settles. */
export const CONFIRM_TRIES = 4;
export const CONFIRM_RETRY_MS = 1500;

type Step =
  | { kind: 'starting' }
  | { kind: 'startFailed'; text: string; retry: boolean }
  | { kind: 'paying'; hold: PaymentStart; notice?: string }
  | { kind: 'expired' }
  | { kind: 'confirming' }
  | { kind: 'confirmFailed'; reservationId: string; text: string }
  | { kind: 'waiting' }
  | { kind: 'done'; payment: Payment };

/** Steps that replace what the member was looking at: the focus moves to their message. */
const ANNOUNCED: ReadonlySet<Step['kind']> = new Set([
  'startFailed',
  'expired',
  'confirmFailed',
  'waiting',
  'done',
]);

/**
 * This page's address with the hold's payment named, for Stripe to come back
 * to after a redirect-based method (the hash router's query carries it).
 */
const returnUrlFor = (scheduleId: string, reservationId: string): string => {
  const url = new URL(window.location.href);
  url.search = '';
  url.hash = `${paymentPath(scheduleId)}?reservationId=${encodeURIComponent(reservationId)}`;
  return url.href;
};

type Returned = { reservationId: string; failed: boolean };

/**
 * Stripe's return: it adds `payment_intent_client_secret` and
 * `redirect_status` to the return URL, before the hash or inside it
 * depending on how the URL is read, so both places are looked at.
 */
const readReturn = (hashQuery: URLSearchParams): Returned | null => {
  const all = new URLSearchParams(window.location.search);
  hashQuery.forEach((value, key) => {
    if (!all.has(key)) all.set(key, value);
  });
  const reservationId = all.get('reservationId');
  if (!all.get('payment_intent_client_secret') || !reservationId) return null;
  return { reservationId, failed: all.get('redirect_status') === 'failed' };
};

/** Stripe's parameters before the hash would follow the member to every page. */
const forgetStripeQuery = () => {
  if (!window.location.search) return;
  const url = new URL(window.location.href);
  url.search = '';
  window.history.replaceState(window.history.state, '', url.href);
};

const wait = (ms: number) =>
  new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/** Whether Stripe.js loaded (a blocked script or no network leaves it null). */
const useStripeAvailability = (enabled: boolean) => {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    const started = startPayments(runtimeConfig.stripePublishableKey);
    void (started?.stripe ?? Promise.resolve(null)).then((stripe) => {
      if (alive) setState(stripe ? 'ready' : 'failed');
    });
    return () => {
      alive = false;
    };
  }, [enabled]);
  return state;
};

type LessonSummaryProps = {
  date: string;
  startTime: string;
  endTime?: string;
  place: string;
  proName: string;
};

const LessonSummary = ({
  date,
  startTime,
  endTime,
  place,
  proName,
}: LessonSummaryProps) => (
  <dl className="payment-lesson">
    <div>
      <dt>日時</dt>
      <dd>
        {formatDate(date)} {startTime}〜{endTime ?? ''}
      </dd>
    </div>
    <div>
      <dt>場所</dt>
      <dd>{place}</dd>
    </div>
    <div>
      <dt>プロ</dt>
      <dd>{proName}</dd>
    </div>
  </dl>
);

/** The lesson being paid for, from the member's own lessons (a hold puts it there). */
const useLesson = (scheduleId: string, userId: string | undefined) => {
  const { lesson } = useGetSchedulesByIdQuery(userId ? { userId } : skipToken, {
    selectFromResult: ({ data }) => ({
      lesson: data?.find((s) => s.id === scheduleId),
    }),
  });
  const { data: pros } = useGetLessonMembersQuery(
    lesson ? [lesson.proId] : skipToken,
  );
  const name = pros?.[0]?.userName;
  return { lesson, proName: name ? `${name}プロ` : 'プロ' };
};

type DoneProps = {
  payment: Payment;
  focusRef: RefObject<HTMLHeadingElement | null>;
};

/** お支払いが完了しました, with the way back to the lesson and to 領収書. */
const PaymentDone = ({ payment, focusRef }: DoneProps) => {
  const refunded = payment.status === 'refunded';
  return (
    <FocusSection
      id="payment-done-title"
      title={refunded ? 'お支払いを返金しました' : 'お支払いが完了しました'}
      headingRef={focusRef}
      className="payment-done"
      titleClassName="payment-done__title"
    >
      <p>
        {refunded
          ? '満席のためご予約をお取りできませんでした。お支払いは全額返金しました（カード会社により反映まで数日かかる場合があります）。'
          : 'ご予約が確定しました。確認のメールをお送りしました。'}
      </p>
      <LessonSummary
        date={payment.date}
        startTime={payment.startTime}
        place={payment.place}
        proName={`${payment.proName}プロ`}
      />
      <p className="payment-done__total">
        お支払い金額：{formatYenSuffix(payment.amount + payment.serviceFee)}
        （税込）
      </p>
      <div className="button-row">
        <Link to="/tabs/schedule" className="button button--primary">
          予約を確認する
        </Link>
        <Link
          to={`/tabs/schedule/pro/${payment.proId}`}
          className="button button--outline"
        >
          レッスンのページへ
        </Link>
        {payment.receiptNo && (
          <Link
            to={`/receipt/${payment.reservationId}`}
            className="button button--outline"
          >
            領収書を表示
          </Link>
        )}
      </div>
    </FocusSection>
  );
};

/**
 * `#/payment/:scheduleId` お支払い: holds a place (/payment/start), shows the
 * lesson, the amount broken down and the hold's countdown, and takes the card
 * in Stripe's Payment Element; once Stripe has the money the server is asked
 * to confirm (/payment/confirm), as it is when Stripe sends the member back
 * here after a redirect. Rendered behind the login (route table).
 */
export const PaymentPage = () => {
  useDocumentTitle('お支払い');
  const { scheduleId = '' } = useParams();
  const [hashQuery] = useSearchParams();
  const user = useAppSelector(selectAuthUser);
  const enabled = paymentsEnabled();
  const isAmateur = user?.type === 'amature';
  const stripeState = useStripeAvailability(enabled && isAmateur);
  const { lesson, proName } = useLesson(scheduleId, user?.id);
  const [start] = useStartPaymentMutation();
  const [confirm] = useConfirmPaymentMutation();
  const [step, setStep] = useState<Step>(() =>
    readReturn(hashQuery)?.failed === false
      ? { kind: 'confirming' }
      : { kind: 'starting' },
  );
  const focusRef = useRef<HTMLHeadingElement | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  /** /payment/start: the hold, or why there is none. */
  const runStart = useCallback(
    async (notice?: string): Promise<Step> => {
      const result = await start({ scheduleId });
      if (result.data) return { kind: 'paying', hold: result.data, notice };
      const error = apiErrorOf(result);
      return error
        ? { kind: 'startFailed', ...startFailureMessage(error) }
        : { kind: 'startFailed', text: PAYMENT_FAILED_MSG, retry: true };
    },
    [scheduleId, start],
  );

  /**
   * Stripe has the money (or will soon): the server confirms the
   * reservation, asked again a few times while Stripe has not settled it.
   */
  const runConfirm = useCallback(
    async (reservationId: string): Promise<Step> => {
      for (let attempt = 1; attempt <= CONFIRM_TRIES; attempt++) {
        const result = await confirm({ reservationId });
        const error = apiErrorOf(result);
        if (error)
          return {
            kind: 'confirmFailed',
            reservationId,
            text: `お支払いを確認できませんでした。${error.msg}お支払いが済んでいれば、確認が取れしだいご予約が確定し、メールでお知らせします。`,
          };
        const payment = result.data;
        if (payment?.status === 'paid' || payment?.status === 'refunded')
          return { kind: 'done', payment };
        if (payment?.status === 'failed') return { kind: 'expired' };
        if (!alive.current) break;
        if (attempt < CONFIRM_TRIES) await wait(CONFIRM_RETRY_MS);
      }
      return { kind: 'waiting' };
    },
    [confirm],
  );

  const show = useCallback((next: Promise<Step>) => {
    void next.then((s) => {
      if (alive.current) setStep(s);
    });
  }, []);

  /**
   * Before a second try: /payment/start answers the same intent while the
   * hold lasts; after a decline released it, a new hold (the form is
   * replaced and the card asked for again) or why there is none.
   */
  const holdStillValid = async (current: PaymentStart): Promise<boolean> => {
    const next = await runStart(
      '前回のお支払いが完了しなかったため、席を確保し直しました。カード情報をもう一度入力してください。',
    );
    if (
      next.kind === 'paying' &&
      next.hold.clientSecret === current.clientSecret
    )
      return true;
    if (alive.current) setStep(next);
    return false;
  };

  const begin = () => {
    setStep({ kind: 'starting' });
    show(runStart());
  };
  const settle = (reservationId: string) => {
    setStep({ kind: 'confirming' });
    show(runConfirm(reservationId));
  };

  // Once per lesson: back from Stripe's redirect, or a new (or resumed) hold.
  const begun = useRef<string | null>(null);
  useEffect(() => {
    if (!enabled || !isAmateur || begun.current === scheduleId) return;
    begun.current = scheduleId;
    const returned = readReturn(hashQuery);
    forgetStripeQuery();
    // The first step shown ('starting' or 'confirming') was chosen with the state.
    show(
      returned && !returned.failed
        ? runConfirm(returned.reservationId)
        : runStart(
            returned?.failed
              ? 'お支払いが完了しませんでした。別のお支払い方法をお試しください。'
              : undefined,
          ),
    );
  }, [enabled, isAmateur, scheduleId, hashQuery, runStart, runConfirm, show]);

  useEffect(() => {
    if (ANNOUNCED.has(step.kind)) focusRef.current?.focus();
  }, [step.kind]);

  const onExpired = useCallback(() => setStep({ kind: 'expired' }), []);

  const header = (
    <PageHeader
      section="スケジュール"
      sectionTo="/tabs/schedule"
      subtitle="お支払い"
      title="お支払い"
      titleRight="PAYMENT"
    />
  );
  const back = (
    <Link to="/tabs/schedule" className="button button--outline">
      スケジュールに戻る
    </Link>
  );

  if (!enabled || !isAmateur)
    return (
      <>
        {header}
        <div className="container section payment-page">
          <NoticeCard
            lead={
              enabled
                ? 'お支払いはアマチュア会員のみご利用いただけます。'
                : 'オンラインでのお支払いは受け付けていません。'
            }
            text={enabled ? undefined : PAY_AT_COURSE}
            actions={back}
          />
        </div>
      </>
    );

  const summary = lesson ? (
    <LessonSummary
      date={lesson.date}
      startTime={lesson.startTime}
      endTime={lesson.endTime}
      place={lesson.place}
      proName={proName}
    />
  ) : null;

  const message = (text: string, actions: ReactNode, lead?: string) => (
    <div className="payment-message" role="alert">
      <h2 ref={focusRef} tabIndex={-1} className="payment-message__lead">
        {lead ?? text}
      </h2>
      {lead && <p>{text}</p>}
      <div className="button-row">{actions}</div>
    </div>
  );

  const body = (() => {
    switch (step.kind) {
      case 'starting':
        return (
          <p className="payment-loading">
            <Spinner label="お支払いの準備をしています" />
            <span aria-hidden="true">お支払いの準備をしています…</span>
          </p>
        );
      case 'startFailed':
        return message(
          step.text,
          <>
            {step.retry && (
              <button
                type="button"
                className="button button--primary"
                onClick={begin}
              >
                もう一度試す
              </button>
            )}
            {back}
          </>,
        );
      case 'expired':
        return message(
          'お支払い期限（15分）を過ぎたため、確保していた席を解放しました。空きがあれば、もう一度予約してお支払いいただけます。',
          <>
            <button
              type="button"
              className="button button--primary"
              onClick={begin}
            >
              もう一度予約する
            </button>
            {back}
          </>,
          'お支払い期限が過ぎました',
        );
      case 'confirming':
        return (
          <p className="payment-loading">
            <Spinner label="お支払いを確認しています" />
            <span aria-hidden="true">お支払いを確認しています…</span>
          </p>
        );
      case 'confirmFailed': {
        const { reservationId } = step;
        return message(
          step.text,
          <>
            <button
              type="button"
              className="button button--primary"
              onClick={() => settle(reservationId)}
            >
              もう一度確認する
            </button>
            {back}
          </>,
        );
      }
      case 'waiting':
        return message(
          'お支払いの確認に時間がかかっています。完了するとご予約が確定し、メールでお知らせします。予約の状況はスケジュールでご確認いただけます。',
          back,
          'お支払いを確認中です',
        );
      case 'done':
        return <PaymentDone payment={step.payment} focusRef={focusRef} />;
      case 'paying': {
        const { hold } = step;
        const total = hold.amount + hold.serviceFee;
        return (
          <div className="payment-step">
            <div className="payment-step__summary">
              {summary}
              <PaymentBreakdown
                amount={hold.amount}
                serviceFee={hold.serviceFee}
              />
              <HoldCountdown
                holdExpiresAt={hold.holdExpiresAt}
                onExpired={onExpired}
              />
            </div>
            <div className="payment-step__card">
              <h2 className="payment-step__title">カード情報の入力</h2>
              {step.notice && (
                <p className="checkout-form__error" role="alert">
                  {step.notice}
                </p>
              )}
              {stripeState === 'failed' ? (
                <p className="checkout-form__error" role="alert">
                  決済サービスを読み込めませんでした。通信環境をご確認のうえ、ページを再読み込みしてください。
                </p>
              ) : stripeState === 'loading' ? (
                <Spinner label="お支払いフォームを読み込み中" />
              ) : (
                <Suspense
                  fallback={<Spinner label="お支払いフォームを読み込み中" />}
                >
                  <CheckoutForm
                    // A new hold is a new intent: Elements cannot change its secret.
                    key={hold.clientSecret}
                    clientSecret={hold.clientSecret}
                    total={total}
                    returnUrl={returnUrlFor(scheduleId, hold.reservationId)}
                    onPaid={() => settle(hold.reservationId)}
                    holdStillValid={() => holdStillValid(hold)}
                  />
                </Suspense>
              )}
            </div>
          </div>
        );
      }
    }
  })();

  return (
    <>
      {header}
      <div className="container section payment-page">
        <p className="back-link">
          <Link
            to={
              lesson ? `/tabs/schedule/pro/${lesson.proId}` : '/tabs/schedule'
            }
          >
            ‹ レッスンに戻る
          </Link>
        </p>
        {step.kind !== 'paying' && step.kind !== 'done' && summary}
        {body}
      </div>
    </>
  );
};

export default PaymentPage;
