import { PREFECTURES, PRO_SORTS } from '@proam/contract';
import { useId, useState, type FormEvent } from 'react';
import { InlineError } from '@/components/inline-error';
import {
  useSearchProsInfiniteQuery,
  type ProSearch as ProSearchArg,
} from '../likes-api';
import { LikeButton } from './like-button';
import { MemberCard, MemberCardSkeletons, proPath } from './member-card';

const SORT_LABELS: Record<(typeof PRO_SORTS)[number], string> = {
  new: '新着順',
  likes: '人気順',
  fee: '料金の安い順',
};

type Values = {
  area: string;
  feeMin: string;
  feeMax: string;
  date: string;
  keyword: string;
  sort: (typeof PRO_SORTS)[number];
};
type FeeField = 'feeMin' | 'feeMax';

const EMPTY: Values = {
  area: '',
  feeMin: '',
  feeMax: '',
  date: '',
  keyword: '',
  sort: 'new',
};
const FEE_MAX = 10_000_000;

const parseFee = (v: string): number | null | undefined => {
  const s = v
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[,，]/g, '');
  if (s === '') return undefined;
  return /^\d{1,8}$/.test(s) && Number(s) <= FEE_MAX ? Number(s) : null;
};

/** Japanese errors for the fee range; empty when the form can be sent. */
export const validateSearch = (
  v: Values,
): Partial<Record<FeeField, string>> => {
  const errors: Partial<Record<FeeField, string>> = {};
  const min = parseFee(v.feeMin);
  const max = parseFee(v.feeMax);
  if (min === null)
    errors.feeMin = '下限は0〜10,000,000の半角数字で入力してください。';
  if (max === null)
    errors.feeMax = '上限は0〜10,000,000の半角数字で入力してください。';
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    errors.feeMax = '上限は下限以上の金額にしてください。';
  return errors;
};

const toArg = (v: Values): ProSearchArg => {
  const arg: ProSearchArg = { sort: v.sort };
  if (v.area) arg.area = v.area as ProSearchArg['area'];
  const min = parseFee(v.feeMin);
  const max = parseFee(v.feeMax);
  if (typeof min === 'number') arg.feeMin = min;
  if (typeof max === 'number') arg.feeMax = max;
  if (v.date) arg.date = v.date;
  if (v.keyword.trim()) arg.keyword = v.keyword.trim();
  return arg;
};

type ProSearchProps = {
  likedIds: ReadonlySet<string>;
  /** Without it (buyer mode) the results have no like buttons. */
  onToggle?: (id: string) => void;
};

/** Finds pros by area, fee range, an open lesson on a date and a keyword. */
export const ProSearch = ({ likedIds, onToggle }: ProSearchProps) => {
  const id = useId();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FeeField, string>>>({});
  const [arg, setArg] = useState<ProSearchArg>(toArg(EMPTY));
  const search = useSearchProsInfiniteQuery(arg);
  const pros = search.data?.pages.flat() ?? [];

  const set = (f: keyof Values, v: string) => {
    const next = { ...values, [f]: v } as Values;
    setValues(next);
    if (Object.keys(errors).length) setErrors(validateSearch(next));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateSearch(values);
    setErrors(found);
    const first = (['feeMin', 'feeMax'] as const).find((f) => found[f]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setArg(toArg(values));
  };

  const reset = () => {
    setValues(EMPTY);
    setErrors({});
    setArg(toArg(EMPTY));
  };

  const fee = (f: FeeField, label: string) => (
    <div className="form-field">
      <label htmlFor={`${id}-${f}`} className="form-field__label">
        {label}
      </label>
      <input
        id={`${id}-${f}`}
        name={f}
        inputMode="numeric"
        autoComplete="off"
        placeholder={f === 'feeMin' ? '例：5000' : '例：20000'}
        value={values[f]}
        aria-invalid={errors[f] ? true : undefined}
        aria-describedby={errors[f] ? `${id}-${f}-error` : undefined}
        onChange={(e) => set(f, e.target.value)}
      />
      {errors[f] && (
        <p id={`${id}-${f}-error`} className="form-field__error">
          {errors[f]}
        </p>
      )}
    </div>
  );

  return (
    <section className="member-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="member-section__title">
        プロを探す
      </h2>
      <form
        className="search-form"
        role="search"
        aria-label="プロ検索"
        noValidate
        onSubmit={onSubmit}
      >
        <div className="search-form__grid">
          <div className="form-field">
            <label htmlFor={`${id}-area`} className="form-field__label">
              地域
            </label>
            <select
              id={`${id}-area`}
              name="area"
              value={values.area}
              onChange={(e) => set('area', e.target.value)}
            >
              <option value="">すべての地域</option>
              {PREFECTURES.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </div>
          <div className="form-field">
            <label htmlFor={`${id}-keyword`} className="form-field__label">
              キーワード
            </label>
            <input
              id={`${id}-keyword`}
              name="keyword"
              type="search"
              maxLength={100}
              placeholder="名前・コース・得意分野"
              value={values.keyword}
              onChange={(e) => set('keyword', e.target.value)}
            />
          </div>
          <fieldset className="search-form__fee">
            <legend className="form-field__label">レッスン料金（円）</legend>
            <div className="search-form__range">
              {fee('feeMin', '下限')}
              <span aria-hidden="true" className="search-form__tilde">
                〜
              </span>
              {fee('feeMax', '上限')}
            </div>
          </fieldset>
          <div className="form-field">
            <label htmlFor={`${id}-date`} className="form-field__label">
              日付（空きのあるラウンドレッスン）
            </label>
            <input
              id={`${id}-date`}
              name="date"
              type="date"
              value={values.date}
              onChange={(e) => set('date', e.target.value)}
            />
          </div>
          <div className="form-field">
            <label htmlFor={`${id}-sort`} className="form-field__label">
              並び順
            </label>
            <select
              id={`${id}-sort`}
              name="sort"
              value={values.sort}
              onChange={(e) => set('sort', e.target.value)}
            >
              {PRO_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="button-row">
          <button type="submit" className="button button--primary">
            この条件で検索
          </button>
          <button
            type="button"
            className="button button--outline"
            onClick={reset}
          >
            条件をクリア
          </button>
        </div>
      </form>

      <div className="search-results" aria-busy={search.isFetching}>
        {search.isError && !search.data ? (
          <InlineError
            message="プロを検索できませんでした。"
            onRetry={() => void search.refetch()}
          />
        ) : search.isLoading ||
          (search.isFetching &&
            !search.isFetchingNextPage &&
            pros.length === 0) ? (
          <MemberCardSkeletons count={3} />
        ) : pros.length === 0 ? (
          <p className="empty-state">
            条件に合うプロが見つかりませんでした。条件を変えてお試しください。
          </p>
        ) : (
          <>
            <p className="search-results__count" role="status">
              {search.hasNextPage ? `${pros.length}人以上` : `${pros.length}人`}
              のプロが見つかりました
            </p>
            <ul className="member-list" aria-label="検索結果">
              {pros.map((p) => (
                <li key={p.id}>
                  <MemberCard
                    user={p}
                    to={proPath(p.id)}
                    action={
                      onToggle && (
                        <LikeButton
                          name={p.userName}
                          liked={likedIds.has(p.id)}
                          onToggle={() => onToggle(p.id)}
                        />
                      )
                    }
                  />
                </li>
              ))}
            </ul>
          </>
        )}
        {search.hasNextPage && (
          <div className="button-row button-row--center">
            <button
              type="button"
              className="button button--outline button--wide"
              disabled={search.isFetchingNextPage}
              onClick={() => void search.fetchNextPage()}
            >
              {search.isFetchingNextPage ? '読み込み中…' : 'もっと見る'}
            </button>
          </div>
        )}
      </div>
    </section>
  );
};
