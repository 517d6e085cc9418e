import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createPro, createUser } from '@/testing/factories';
import { apiCalls, bodyOf, ng, ok, requestAt, serveAll } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ProfileForm } from '../components/profile-form';
import {
  validateProfileEditField,
  valuesFromUser,
} from '../profile-validation';

const field = (label: RegExp) =>
  screen.getByLabelText(label, { selector: 'input, select, textarea' });

describe('profile validation', () => {
  const base = valuesFromUser(createUser());

  it('explains each bound in Japanese', () => {
    expect(
      validateProfileEditField('userName', { ...base, userName: ' ' }),
    ).toBe('氏名を入力してください。');
    expect(
      validateProfileEditField('userName', {
        ...base,
        userName: 'あ'.repeat(41),
      }),
    ).toBe('氏名は40文字以内で入力してください。');
    expect(
      validateProfileEditField('nameKana', { ...base, nameKana: 'Yamamoto' }),
    ).toBe('ふりがなはひらがな（またはカタカナ）で入力してください。');
    // Katakana passes, as at registration; the message says so.
    expect(
      validateProfileEditField('nameKana', {
        ...base,
        nameKana: 'ヤマモト タクヤ',
      }),
    ).toBeUndefined();
    expect(
      validateProfileEditField('nameKana', { ...base, nameKana: '' }),
    ).toBeUndefined();
    expect(validateProfileEditField('area', { ...base, area: 'どこか' })).toBe(
      '地域は一覧から選択してください。',
    );
    expect(
      validateProfileEditField('bio', { ...base, bio: 'a'.repeat(1001) }),
    ).toBe('自己紹介は1000文字以内で入力してください。');
    expect(
      validateProfileEditField('averageScore', { ...base, averageScore: '49' }),
    ).toBe('平均スコアは50〜200の範囲で入力してください。');
    expect(
      validateProfileEditField('averageScore', {
        ...base,
        averageScore: '９５',
      }),
    ).toBeUndefined();
    expect(
      validateProfileEditField('experienceYears', {
        ...base,
        experienceYears: '1.5',
      }),
    ).toBe('ゴルフ歴は半角数字（整数）で入力してください。');
    expect(
      validateProfileEditField('lessonFee', { ...base, lessonFee: '10000001' }),
    ).toBe('レッスン料金は0〜10,000,000円の範囲で入力してください。');
  });

  it('lets a saved number be emptied (the API clears it with null)', () => {
    for (const f of ['averageScore', 'experienceYears', 'lessonFee'] as const)
      expect(validateProfileEditField(f, { ...base, [f]: '' })).toBeUndefined();
  });
});

describe('profile form', () => {
  it('shows the errors, focuses the first, keeps what was typed and sends nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ProfileForm user={createUser()} />);
    await user.clear(field(/^氏名/));
    await user.clear(field(/平均スコア/));
    await user.type(field(/平均スコア/), '300');
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(
      await screen.findByText('氏名を入力してください。'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('平均スコアは50〜200の範囲で入力してください。'),
    ).toBeInTheDocument();
    expect(field(/^氏名/)).toHaveFocus();
    expect(field(/^氏名/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/平均スコア/)).toHaveValue('300');
    expect(apiCalls).toHaveLength(0);
  });

  it('saves the editable fields and announces success', async () => {
    const user = userEvent.setup();
    serveAll(() => ok(createUser({ bio: '更新しました' })));
    renderWithProviders(<ProfileForm user={createUser()} />);
    await user.clear(field(/自己紹介/));
    await user.type(field(/自己紹介/), '更新しました');
    await user.selectOptions(field(/地域/), '神奈川県');
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'プロフィールを保存しました。',
    );
    expect(new URL(requestAt(0).url).pathname).toBe('/api/user/update');
    expect(await bodyOf(0)).toEqual({
      id: 'u-1',
      userName: '山本 拓也',
      nameKana: 'やまもと たくや',
      area: '神奈川県',
      bio: '更新しました',
      amateur: { averageScore: 98, experienceYears: 3 },
    });
  });

  it('clears an emptied 平均スコア and ゴルフ歴 with null', async () => {
    const user = userEvent.setup();
    serveAll(() => ok(createUser({ amateur: { averageScore: undefined } })));
    renderWithProviders(<ProfileForm user={createUser()} />);
    await user.clear(field(/平均スコア/));
    await user.clear(field(/ゴルフ歴/));
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'プロフィールを保存しました。',
    );
    expect((await bodyOf(0)).amateur).toEqual({
      averageScore: null,
      experienceYears: null,
    });
  });

  it("clears an emptied pro's レッスン料金 with null", async () => {
    const user = userEvent.setup();
    const pro = createPro('p1', { email: 'pro1@example.jp' });
    serveAll(() => ok(pro));
    renderWithProviders(<ProfileForm user={pro} />);
    expect(field(/レッスン料金/)).toHaveValue('12000');
    await user.clear(field(/レッスン料金/));
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'プロフィールを保存しました。',
    );
    expect((await bodyOf(0)).pro).toMatchObject({ lessonFee: null });
  });

  it('marks the field a ValidationError names and keeps the input', async () => {
    const user = userEvent.setup();
    serveAll(() =>
      ng('ValidationError', {
        msg: '入力内容に誤りがあります。（amateur.experienceYears）',
      }),
    );
    const { store } = renderWithProviders(<ProfileForm user={createUser()} />);
    await user.clear(field(/ゴルフ歴/));
    await user.type(field(/ゴルフ歴/), '70');
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(
      await screen.findByText('ゴルフ歴（年）の内容をご確認ください。'),
    ).toBeInTheDocument();
    expect(field(/ゴルフ歴/)).toHaveValue('70');
    await waitFor(() => expect(store.getState().ui.alerts).toHaveLength(1));
  });
});
