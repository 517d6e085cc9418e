import type { AdminUsersInput, User } from '@proam/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FocusSection } from '@/components/focus-section';
import { SmallButton } from '@/components/small-button';
import { SelectField, TextField } from '@/components/form/field';
import { SearchActions } from '@/components/form/form-actions';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { FlashStatus } from '@/components/flash-status';
import { Pager } from '@/components/pager';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/status-badge';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { useGetAdminUsersQuery, useVerifyProMutation } from '../admin-api';
import {
  KEYWORD_MAX,
  SEARCH_FIELDS,
  validateSearch,
  type SearchValues,
} from '../admin-validation';
import { SuspendDialog } from './suspend-dialog';

export const MEMBERS_PAGE_SIZE = 20;

const TYPE_LABELS: Record<User['type'], string> = {
  amature: 'アマチュア',
  pro: 'プロ',
  admin: '管理者',
};

const TYPE_OPTIONS = [
  { value: '', label: 'すべて' },
  { value: 'amature', label: 'アマチュア' },
  { value: 'pro', label: 'プロ' },
  { value: 'admin', label: '管理者' },
] as const;

const VERIFIED_OPTIONS = [
  { value: '', label: 'すべて' },
  { value: 'false', label: '確認中' },
  { value: 'true', label: '確認済み' },
] as const;

const EMPTY: SearchValues = { keyword: '', type: '', verified: '' };

/** A verification just done: where the focus goes once the list is read again. */
type AfterVerify = {
  id: string;
  /** The page's members, in order, when the button was pressed. */
  order: string[];
  /** The list's last answer then: a newer one shows the change. */
  stamp: number | undefined;
};

/** The member's own row, else the next one down, else the nearest one up. */
const focusOrder = ({ id, order }: AfterVerify) => {
  const i = order.indexOf(id);
  return [id, ...order.slice(i + 1), ...order.slice(0, i).reverse()];
};

const toArg = (v: SearchValues, page: number): AdminUsersInput => {
  const arg: AdminUsersInput = { page, size: MEMBERS_PAGE_SIZE };
  const keyword = v.keyword.trim();
  if (keyword) arg.keyword = keyword;
  if (v.type) arg.type = v.type as NonNullable<AdminUsersInput['type']>;
  if (v.verified) arg.verified = v.verified === 'true';
  return arg;
};

/**
 * 会員管理: find members by name or mail, type and (pros) verification;
 * verify pros, suspend members with a reason and lift it.
 */
export const MemberManagement = () => {
  const id = useId();
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: SEARCH_FIELDS,
    validate: validateSearch,
    checkOn: 'submit',
  });
  const { values, errors, errorCount, bind } = form;
  const [applied, setApplied] = useState<SearchValues>(EMPTY);
  const [page, setPage] = useState(1);
  const { data, isLoading, isError, isFetching, refetch, fulfilledTimeStamp } =
    useGetAdminUsersQuery(toArg(applied, page), {
      refetchOnMountOrArgChange: true,
    });
  const [verify] = useVerifyProMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [toSuspend, setToSuspend] = useState<User | null>(null);
  const [message, setMessage] = useState('');
  // After a row action the count is still shown but not announced: the
  // action's message says what happened (a search or a page turn speaks again).
  const [countQuiet, setCountQuiet] = useState(false);
  const resultsRef = useRef<HTMLHeadingElement>(null);
  const actionsRefs = useRef(new Map<string, HTMLDivElement>());
  const afterVerify = useRef<AfterVerify | null>(null);

  // A verified pro may leave a list narrowed to 確認中/確認済み, taking the
  // focused button along: the focus goes to the nearest member's actions, or
  // to the list's heading when none is left.
  useEffect(() => {
    const pending = afterVerify.current;
    if (!pending || isFetching) return;
    if (!isError && fulfilledTimeStamp === pending.stamp) return;
    afterVerify.current = null;
    // Only a focus that was lost; one moved on elsewhere stays there.
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const shown = new Set(isError ? [] : data?.map((u) => u.id));
    const target = focusOrder(pending).find((id) => shown.has(id));
    const button = target
      ? actionsRefs.current.get(target)?.querySelector('button')
      : null;
    (button ?? resultsRef.current)?.focus();
  }, [data, isError, isFetching, fulfilledTimeStamp]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.validateForm()) return;
    setApplied(values);
    setPage(1);
    setMessage('');
    setCountQuiet(false);
  };

  const clear = () => {
    form.reset(EMPTY);
    setApplied(EMPTY);
    setPage(1);
    setMessage('');
    setCountQuiet(false);
  };

  const goTo = (next: number) => {
    setPage(next);
    setCountQuiet(false);
    resultsRef.current?.focus();
  };

  const toggleVerified = async (u: User) => {
    const verified = !u.pro?.verified;
    const order = data?.map((m) => m.id) ?? [];
    const stamp = fulfilledTimeStamp;
    // The list narrowed to the other state loses this member.
    const leaves =
      applied.verified !== '' && applied.verified !== `${verified}`;
    setPendingId(u.id);
    setCountQuiet(true);
    const result = await verify({ id: u.id, verified });
    setPendingId(null);
    if (!('data' in result)) return;
    afterVerify.current = { id: u.id, order, stamp };
    const done = verified
      ? `${u.userName}さんを確認済みにしました。本人にメールでお知らせしました。`
      : `${u.userName}さんの確認を取り消しました（確認中に戻しました）。`;
    // The empty list is not announced on its own: the message says it.
    const left =
      leaves && order.length === 1
        ? page > 1
          ? 'このページに残る会員はいません。'
          : 'この条件に合う会員はほかにいません。'
        : '';
    setMessage(done + left);
  };

  const count = data?.length ?? 0;
  const hasNext = count === MEMBERS_PAGE_SIZE;

  return (
    <div className="stack">
      <form
        className="admin-search"
        role="search"
        aria-label="会員検索"
        noValidate
        onSubmit={onSubmit}
      >
        <FormErrorSummary errorCount={errorCount} serverError={null} />
        <div className="admin-search__grid">
          <TextField
            label="名前・メールアドレス"
            noBadge
            type="search"
            autoComplete="off"
            placeholder="例：山田、pro1@example.jp"
            error={errors.keyword}
            {...bind('keyword')}
            hint={`${KEYWORD_MAX}文字以内。名前・ふりがな・メールアドレスの一部で探せます。`}
          />
          <SelectField
            label="会員種別"
            noBadge
            options={TYPE_OPTIONS}
            {...bind('type')}
          />
          <SelectField
            label="プロの確認状況"
            noBadge
            hint="選ぶとプロだけを表示します。"
            options={VERIFIED_OPTIONS}
            {...bind('verified')}
          />
        </div>
        <SearchActions submitLabel="検索する" onClear={clear} />
      </form>

      <FlashStatus message={message} />

      <FocusSection
        id={`${id}-results`}
        title="会員一覧"
        headingRef={resultsRef}
        titleClassName="admin-section-title"
        busy={isFetching}
      >
        <p
          className="admin-results-count"
          role="status"
          aria-live={countQuiet ? 'off' : undefined}
        >
          {isLoading || (isFetching && !data)
            ? '検索しています…'
            : isError
              ? ''
              : count === 0
                ? page > 1
                  ? `${page}ページ目に会員はいません。`
                  : '条件に合う会員は見つかりませんでした。'
                : `${page}ページ目：${(page - 1) * MEMBERS_PAGE_SIZE + 1}〜${(page - 1) * MEMBERS_PAGE_SIZE + count}件目を表示しています${hasNext ? '（次のページがあります）' : ''}。`}
        </p>
        <QueryState
          query={{ isLoading, isError, isFetching, refetch }}
          loading="会員を読み込み中"
          error="会員一覧を読み込めませんでした。検索条件はそのまま残っています。"
        >
          {() =>
            count > 0 && (
              <div className="table-scroll">
                <table className="admin-table">
                  <caption className="visually-hidden">
                    会員一覧（{page}ページ目）
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">名前</th>
                      <th scope="col">メールアドレス</th>
                      <th scope="col">種別</th>
                      <th scope="col">確認</th>
                      <th scope="col">利用状況</th>
                      <th scope="col">操作</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data?.map((u) => (
                      <tr
                        key={u.id}
                        className={u.suspended ? 'is-suspended' : undefined}
                      >
                        <th scope="row" data-label="名前">
                          <div>
                            <span className="admin-table__name">
                              {u.userName}
                            </span>
                            {u.nameKana && (
                              <span className="admin-table__kana">
                                {u.nameKana}
                              </span>
                            )}
                          </div>
                        </th>
                        <td data-label="メール" className="admin-table__mail">
                          {u.email ? (
                            <a href={`mailto:${u.email}`}>{u.email}</a>
                          ) : (
                            '—'
                          )}
                        </td>
                        <td data-label="種別">{TYPE_LABELS[u.type]}</td>
                        <td data-label="確認">
                          {u.type !== 'pro' ? (
                            <span className="muted">—</span>
                          ) : u.pro?.verified ? (
                            <Badge tone="open">確認済み</Badge>
                          ) : (
                            <Badge tone="closed">確認中</Badge>
                          )}
                        </td>
                        <td data-label="利用状況">
                          {u.suspended ? (
                            <div>
                              <Badge tone="suspended">利用停止中</Badge>
                              {u.suspendReason && (
                                <span className="admin-table__reason">
                                  理由：{u.suspendReason}
                                </span>
                              )}
                            </div>
                          ) : (
                            '利用中'
                          )}
                        </td>
                        <td data-label="操作">
                          <div
                            className="admin-table__actions"
                            ref={(el) => {
                              if (el) actionsRefs.current.set(u.id, el);
                              else actionsRefs.current.delete(u.id);
                            }}
                          >
                            {u.type === 'pro' && (
                              <SmallButton
                                variant={
                                  u.pro?.verified ? 'outline' : 'primary'
                                }
                                disabled={pendingId === u.id}
                                aria-label={`${u.pro?.verified ? '確認を取り消す' : '確認済みにする'}（${u.userName}さん）`}
                                onClick={() => void toggleVerified(u)}
                              >
                                {u.pro?.verified
                                  ? '確認を取り消す'
                                  : '確認済みにする'}
                              </SmallButton>
                            )}
                            {u.type !== 'admin' && (
                              <SmallButton
                                variant={
                                  u.suspended ? 'outline' : 'outline-danger'
                                }
                                aria-label={`${u.suspended ? '停止を解除' : '利用停止'}（${u.userName}さん）`}
                                onClick={() => setToSuspend(u)}
                              >
                                {u.suspended ? '停止を解除' : '利用停止'}
                              </SmallButton>
                            )}
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryState>
        <Pager
          page={page}
          hasNext={hasNext}
          busy={isFetching}
          onGo={goTo}
          label="会員一覧のページ"
          className="admin-pager"
          buttonClassName="button button--outline button--small"
        />
      </FocusSection>

      <SuspendDialog
        member={toSuspend}
        onClose={() => setToSuspend(null)}
        onDone={(changed) => {
          setCountQuiet(true);
          setMessage(
            changed.suspended
              ? `${changed.userName}さんを利用停止にしました。`
              : `${changed.userName}さんの利用停止を解除しました。`,
          );
        }}
      />
    </div>
  );
};
