import { UserUpdateInputSchema, type User } from '@proam/contract';
import { maxLengthOf, rangeOf, textLength } from '@/lib/contract-limits';
import { isAreaOrNone } from '@/lib/area';
import type { ProfileUpdate } from './profile-api';
import { groupDigits } from '@/lib/format';

const input = UserUpdateInputSchema.properties;
const pro = input.pro.properties;
const amateur = input.amateur.properties;

/** The bounds of /user/update. */
export const LIMITS = {
  userName: maxLengthOf(input.userName),
  nameKana: maxLengthOf(input.nameKana),
  bio: maxLengthOf(input.bio),
  affiliation: maxLengthOf(pro.affiliation),
  career: maxLengthOf(pro.career),
  homeCourse: maxLengthOf(pro.homeCourse),
  specialty: maxLengthOf(pro.specialty),
  lessonFee: rangeOf(pro.lessonFee),
  averageScore: rangeOf(amateur.averageScore),
  experienceYears: rangeOf(amateur.experienceYears),
};

export type ProfileFormValues = {
  userName: string;
  nameKana: string;
  area: string;
  bio: string;
  affiliation: string;
  career: string;
  lessonFee: string;
  homeCourse: string;
  specialty: string;
  averageScore: string;
  experienceYears: string;
};
export type ProfileFormField = keyof ProfileFormValues;

const COMMON: readonly ProfileFormField[] = [
  'userName',
  'nameKana',
  'area',
  'bio',
];
const PRO: readonly ProfileFormField[] = [
  'affiliation',
  'career',
  'lessonFee',
  'homeCourse',
  'specialty',
];
const AMATEUR: readonly ProfileFormField[] = [
  'averageScore',
  'experienceYears',
];

/** The fields a member of this type edits, in form order. */
export const fieldsFor = (type: User['type']): readonly ProfileFormField[] =>
  type === 'pro'
    ? [...COMMON, ...PRO]
    : type === 'amature'
      ? [...COMMON, ...AMATEUR]
      : COMMON;

export const LABELS: Record<ProfileFormField, string> = {
  userName: '氏名',
  nameKana: 'ふりがな',
  area: '地域',
  bio: '自己紹介',
  affiliation: '所属',
  career: '経歴',
  lessonFee: 'レッスン料金（円）',
  homeCourse: 'ホームコース',
  specialty: '得意分野',
  averageScore: '平均スコア',
  experienceYears: 'ゴルフ歴（年）',
};

const str = (v: number | undefined) => (v === undefined ? '' : String(v));

export const valuesFromUser = (user: User): ProfileFormValues => ({
  userName: user.userName,
  nameKana: user.nameKana ?? '',
  area: user.area ?? '',
  bio: user.bio ?? '',
  affiliation: user.pro?.affiliation ?? '',
  career: user.pro?.career ?? '',
  lessonFee: str(user.pro?.lessonFee),
  homeCourse: user.pro?.homeCourse ?? '',
  specialty: user.pro?.specialty ?? '',
  averageScore: str(user.amateur?.averageScore),
  experienceYears: str(user.amateur?.experienceYears),
});

// ひらがな・カタカナ・長音・空白 (全角/半角), as at registration.
const KANA_RE = /^[\u3041-\u3096\u30A1-\u30FA\u30FC\u3000 ]+$/;
// Half- or full-width digits: people often type ５０００.
const toHalfWidth = (v: string) =>
  v
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[,，]/g, '');

/** A whole number from what was typed, or null when it is not one. */
export const parseWhole = (v: string): number | null => {
  const s = toHalfWidth(v);
  return /^\d{1,9}$/.test(s) ? Number(s) : null;
};

const maxLength = (label: string, value: string, max: number) =>
  textLength(value) > max
    ? `${label}は${max}文字以内で入力してください。`
    : undefined;

const wholeInRange = (
  label: string,
  value: string,
  min: number,
  max: number,
  unit: string,
) => {
  if (value.trim() === '') return undefined;
  const n = parseWhole(value);
  if (n === null) return `${label}は半角数字（整数）で入力してください。`;
  if (n < min || n > max)
    return `${label}は${groupDigits(min)}〜${groupDigits(max)}${unit}の範囲で入力してください。`;
  return undefined;
};

/**
 * One field's error in Japanese, or undefined. An empty number is fine: it
 * clears the saved one (toProfileUpdate sends null).
 */
export const validateProfileEditField = (
  field: ProfileFormField,
  values: ProfileFormValues,
): string | undefined => {
  const v = values[field];
  switch (field) {
    case 'userName':
      if (!v.trim()) return '氏名を入力してください。';
      return maxLength('氏名', v, LIMITS.userName);
    case 'nameKana':
      if (!v.trim()) return undefined;
      if (!KANA_RE.test(v.trim()))
        return 'ふりがなはひらがな（またはカタカナ）で入力してください。';
      return maxLength('ふりがな', v, LIMITS.nameKana);
    case 'area':
      return isAreaOrNone(v) ? undefined : '地域は一覧から選択してください。';
    case 'bio':
      return maxLength('自己紹介', v, LIMITS.bio);
    case 'affiliation':
      return maxLength('所属', v, LIMITS.affiliation);
    case 'career':
      return maxLength('経歴', v, LIMITS.career);
    case 'homeCourse':
      return maxLength('ホームコース', v, LIMITS.homeCourse);
    case 'specialty':
      return maxLength('得意分野', v, LIMITS.specialty);
    case 'lessonFee':
      return wholeInRange('レッスン料金', v, ...LIMITS.lessonFee, '円');
    case 'averageScore':
      return wholeInRange('平均スコア', v, ...LIMITS.averageScore, '');
    case 'experienceYears':
      return wholeInRange('ゴルフ歴', v, ...LIMITS.experienceYears, '年');
  }
};

/** An emptied number clears it: the contract's `null` ("null clears it"). */
const numberOrNull = (v: string) =>
  v.trim() === '' ? null : (parseWhole(v) ?? undefined);

/** The /user/update body for the validated values ('' clears a text field, null a number). */
export const toProfileUpdate = (
  user: User,
  values: ProfileFormValues,
): ProfileUpdate => {
  const t = (v: string) => v.trim();
  const body: ProfileUpdate = {
    id: user.id,
    userName: t(values.userName),
    nameKana: t(values.nameKana),
    area: values.area,
    bio: t(values.bio),
  };
  if (user.type === 'pro')
    body.pro = {
      affiliation: t(values.affiliation),
      career: t(values.career),
      lessonFee: numberOrNull(values.lessonFee),
      homeCourse: t(values.homeCourse),
      specialty: t(values.specialty),
    };
  if (user.type === 'amature')
    body.amateur = {
      averageScore: numberOrNull(values.averageScore),
      experienceYears: numberOrNull(values.experienceYears),
    };
  return body;
};

/** `pro.lessonFee` or `bio` from a ValidationError's field name → the form field. */
export const formFieldOfServerField = (
  name: string | undefined,
): ProfileFormField | undefined => {
  if (!name) return undefined;
  const last = name.split('.').pop() ?? '';
  return last in LABELS ? (last as ProfileFormField) : undefined;
};
