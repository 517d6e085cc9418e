import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createCompetition } from '@/testing/factories';
import { apiCalls, bodyOf, ok, requestAt, serveAll } from '@/testing/msw';
import { renderWithProviders } from '@/testing/render';
import { ResultsEditor } from '../components/results-editor';

const competition = createCompetition();

/** The editor of `shown` (`competition` unless given); `onDone` observes the save. */
const renderEditor = (onDone = vi.fn(), shown = competition) =>
  renderWithProviders(
    <ResultsEditor competition={shown} onDone={onDone} onCancel={vi.fn()} />,
  );

const cell = (row: number, col: string) =>
  screen.getByRole('textbox', { name: `${row}行目の${col}` });

describe('results editor', () => {
  it('shows Japanese errors beside the cells, keeps the input and focuses the first', async () => {
    const user = userEvent.setup();
    renderEditor();
    // One row to start with, rank 1.
    expect(cell(1, '順位')).toHaveValue('1');
    await user.type(cell(1, '選手名'), '石川 遼');
    await user.click(screen.getByRole('button', { name: '行を追加' }));
    expect(cell(2, '順位')).toHaveValue('2');
    expect(cell(2, '選手名')).toHaveFocus();
    await user.clear(cell(2, '順位'));
    await user.type(cell(2, '順位'), '1');
    await user.type(cell(2, 'スコア'), 'abc');
    await user.click(screen.getByRole('button', { name: '結果を保存する' }));

    expect(screen.getByRole('alert')).toHaveTextContent(
      '入力内容に4件の誤りがあります',
    );
    expect(cell(1, '順位')).toHaveAccessibleDescription(
      '順位が重複しています。',
    );
    expect(cell(1, '順位')).toHaveFocus();
    expect(cell(2, '選手名')).toHaveAccessibleDescription(
      '選手名を入力してください。',
    );
    expect(cell(2, 'スコア')).toHaveAccessibleDescription(
      'スコアは-100〜1000の整数で入力してください。',
    );
    expect(cell(1, '選手名')).toHaveValue('石川 遼');
    expect(cell(2, 'スコア')).toHaveValue('abc');
    expect(apiCalls).toHaveLength(0);

    // Deleting the second row clears the duplicate.
    await user.click(screen.getByRole('button', { name: '2行目を削除' }));
    expect(screen.queryByRole('textbox', { name: '2行目の順位' })).toBeNull();
    expect(cell(1, '順位')).not.toHaveAttribute('aria-invalid');
  });

  it('moves focus inside the click that adds or removes a row, before anything else is typed', () => {
    renderEditor();
    // fireEvent gives no tick between the click and the next keystroke: a
    // deferred focus() would still be pending here.
    fireEvent.click(screen.getByRole('button', { name: '行を追加' }));
    expect(cell(2, '選手名')).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: '行を追加' }));
    expect(cell(3, '選手名')).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: '2行目を削除' }));
    expect(cell(2, '順位')).toHaveValue('3');
    expect(cell(2, '順位')).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: '2行目を削除' }));
    fireEvent.click(screen.getByRole('button', { name: '1行目を削除' }));
    expect(screen.getByRole('button', { name: '行を追加' })).toHaveFocus();
  });

  it('saves the results and the finished status with /competition/update', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    serveAll(() => ok(1));
    renderEditor(onDone);
    await user.type(cell(1, '選手名'), '松山 英樹');
    await user.type(cell(1, 'スコア'), '６７');
    await user.click(screen.getByRole('button', { name: '行を追加' }));
    await user.type(cell(2, '選手名'), '石川 遼');
    const finish = screen.getByRole('checkbox', {
      name: /ステータスを「終了」/,
    });
    expect(finish).toBeChecked(); // the competition date has passed
    await user.click(screen.getByRole('button', { name: '結果を保存する' }));

    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(new URL(requestAt(0).url).pathname).toBe('/api/competition/update');
    expect(await bodyOf(0)).toEqual({
      id: 'c-1',
      results: [
        { rank: 1, playerName: '松山 英樹', score: 67 },
        { rank: 2, playerName: '石川 遼' },
      ],
      status: 'finished',
    });
  });

  it('leaves a draft unfinished unless asked, saying that 終了 would publish it', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    serveAll(() => ok(1));
    renderEditor(onDone, createCompetition({ status: 'draft' }));
    const finish = screen.getByRole('checkbox', {
      name: '保存と同時にステータスを「終了」にする（公開されます）',
    });
    expect(finish).not.toBeChecked(); // although the date has passed
    await user.type(cell(1, '選手名'), '松山 英樹');
    await user.click(screen.getByRole('button', { name: '結果を保存する' }));

    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(await bodyOf(0)).toEqual({
      id: 'c-1',
      results: [{ rank: 1, playerName: '松山 英樹' }],
    });
  });

  it('does not call a draft published in the label once it is', () => {
    renderEditor();
    expect(
      screen.getByRole('checkbox', {
        name: '保存と同時にステータスを「終了」にする',
      }),
    ).toBeInTheDocument();
  });

  it('says the competition is gone when the update changed nothing', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    serveAll(() => ok(0));
    renderEditor(onDone);
    await user.type(cell(1, '選手名'), '松山 英樹');
    await user.click(screen.getByRole('button', { name: '結果を保存する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'この大会は見つかりませんでした（削除された可能性があります）。',
    );
    expect(onDone).not.toHaveBeenCalled();
  });
});
