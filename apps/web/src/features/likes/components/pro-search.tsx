import {
  PREFECTURES,
  PRO_SORTS,
  ProConditionInputSchema,
} from '@proam/contract';
import { useId, useState, type FormEvent } from 'react';
import { MemberSection } from '@/components/member-section';
import { SelectField, TextField } from '@/components/form/field';
import { InlineError } from '@/components/inline-error';
import { useValidatedForm } from '@/hooks/use-validated-form';
import { maxLengthOf, rangeOf } from '@/lib/contract-limits';
import {
  useSearchProsInfiniteQuery,
  type ProSearch as ProSearchArg,
} from '../likes-api';
import { LikeButton } from './like-button';
import { MemberCard, MemberCardSkeletons, proPath } from './member-card';
import { LoadMore, SearchActions } from '@/components/form/form-actions';
import { groupDigits } from '@/lib/format';

const SORT_LABELS: Record<(typeof PRO_SORTS)[number], string> = {
  new: '新着順',
  likes: '人気順',
  fee: '料金の安い順',
  rating: '評価の高い順',
};

const SORT_OPTIONS = PRO_SORTS.map((s) => ({
  value: s,
  label: SORT_LABELS[s],
}));

type Values = {
  area: string;
  feeMin: string;
  feeMax: string;
  date: string;
  keyword: string;
  sort: (typeof PRO_SORTS)[number];
};

const EMPTY: Values = {
  area: '',
  feeMin: '',
  feeMax: '',
  date: '',
  keyword: '',
  sort: 'new',
};

const input = ProConditionInputSchema.properties;
const FEE = rangeOf(input.feeMin);
const KEYWORD_MAX = maxLengthOf(input.keyword);
const FEE_RANGE = `${FEE[0]}〜${groupDigits(FEE[1])}`;

const parseFee = (v: string): number | null | undefined => {
  const s = v
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[,，]/g, '');
  if (s === '') return undefined;
  const n = Number(s);
  return /^\d+$/.test(s) && n >= FEE[0] && n <= FEE[1] ? n : null;
};

/** The fee range's Japanese errors; the other conditions cannot be wrong. */
const validateSearch = (field: keyof Values, v: Values): string | undefined => {
  const min = parseFee(v.feeMin);
  const max = parseFee(v.feeMax);
  if (field === 'feeMin' && min === null)
    return `下限は${FEE_RANGE}の半角数字で入力してください。`;
  if (field !== 'feeMax') return undefined;
  if (max === null) return `上限は${FEE_RANGE}の半角数字で入力してください。`;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    return '上限は下限以上の金額にしてください。';
  return undefined;
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
  const form = useValidatedForm({
    initialValues: EMPTY,
    fields: ['area', 'keyword', 'feeMin', 'feeMax', 'date', 'sort'],
    validate: validateSearch,
    checkOn: 'submit',
  });
  const { values, errors, bind } = form;
  const [arg, setArg] = useState<ProSearchArg>(toArg(EMPTY));
  const search = useSearchProsInfiniteQuery(arg);
  const pros = search.data?.pages.flat() ?? [];

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (form.validateForm()) setArg(toArg(values));
  };

  const reset = () => {
    form.reset(EMPTY);
    setArg(toArg(EMPTY));
  };

  const fee = (f: 'feeMin' | 'feeMax', label: string) => (
    <TextField
      label={label}
      noBadge
      inputMode="numeric"
      autoComplete="off"
      placeholder={f === 'feeMin' ? '例：5000' : '例：20000'}
      error={errors[f]}
      {...bind(f)}
    />
  );

  return (
    <MemberSection id={`${id}-title`} title="プロを探す">
      <form
        className="search-form"
        role="search"
        aria-label="プロ検索"
        noValidate
        onSubmit={onSubmit}
      >
        <div className="search-form__grid">
          <SelectField
            label="地域"
            noBadge
            placeholder="すべての地域"
            options={PREFECTURES}
            {...bind('area')}
          />
          <TextField
            label="キーワード"
            noBadge
            type="search"
            maxLength={KEYWORD_MAX}
            placeholder="名前・コース・得意分野"
            {...bind('keyword')}
          />
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
          <TextField
            label="日付（空きのあるラウンドレッスン）"
            noBadge
            type="date"
            {...bind('date')}
          />
          <SelectField
            label="並び順"
            noBadge
            options={SORT_OPTIONS}
            {...bind('sort')}
          />
        </div>
        <SearchActions submitLabel="この条件で検索" onClear={reset} />
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
          <MemberCardSkeletons count={3} pros action />
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
          <LoadMore
            className="button-row button-row--center"
            wide
            loading={search.isFetchingNextPage}
            onLoad={search.fetchNextPage}
          />
        )}
      </div>
    </MemberSection>
  );
};
