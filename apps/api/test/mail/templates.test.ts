import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chatDigestMail,
  japaneseDate,
  lessonNoticeMail,
  type LessonNoticeKind,
} from '../../src/mail/templates.js';

const lesson = {
  date: '2026-11-29',
  startTime: '09:00',
  endTime: '14:00',
  place: '相模原ゴルフクラブ',
  proName: '山田 健一',
  fee: 18000,
};
const KINDS: LessonNoticeKind[] = [
  'reserved',
  'cancelled',
  'calledOff',
  'promoted',
  'reminder',
  'reviewInvite',
];
/** What API.md's table says each subject contains. */
const SUBJECT_WORD: Record<LessonNoticeKind, RegExp> = {
  reserved: /予約/,
  cancelled: /キャンセル/,
  calledOff: /中止/,
  promoted: /キャンセル待ち/,
  reminder: /明日/,
  reviewInvite: /口コミ/,
};

describe('lesson mails', () => {
  it('names the date with its weekday in Japanese', () => {
    assert.equal(japaneseDate('2026-11-29'), '2026年11月29日(日)');
    assert.equal(japaneseDate('2027-01-01'), '2027年1月1日(金)');
  });

  for (const kind of KINDS)
    for (const role of ['amateur', 'pro'] as const)
      it(`${kind} to the ${role}: subject, lesson, link`, (t) => {
        const mail = lessonNoticeMail({
          kind,
          role,
          to: 'x@example.jp',
          recipientName: role === 'pro' ? '山田 健一' : '佐藤 花子',
          amateurName: '佐藤 花子',
          lesson,
          link: 'https://proam.example.jp/#/tabs/schedule',
          participants: ['佐藤 花子', '鈴木 一郎'],
          ...(kind === 'calledOff' ? { reason: '雨天のため' } : {}),
        });
        // Printed so a person reads every mail the product sends (npm test output).
        t.diagnostic(`${mail.subject}\n${mail.text}`);
        assert.match(mail.subject, /^【ProAm Connect】/);
        assert.match(mail.subject, SUBJECT_WORD[kind]);
        assert.match(mail.text, /日時：2026年11月29日\(日\) 09:00〜14:00/);
        assert.match(mail.text, /場所：相模原ゴルフクラブ/);
        assert.match(mail.text, /プロ：山田 健一/);
        assert.match(
          mail.text,
          /https:\/\/proam\.example\.jp\/#\/tabs\/schedule/,
        );
        if (kind === 'calledOff')
          assert.match(mail.text, /中止の理由：雨天のため/);
      });

  it('the unread-chat digest', (t) => {
    const mail = chatDigestMail({
      to: 'x@example.jp',
      recipientName: '佐藤 花子',
      lesson,
      unread: 3,
      link: 'https://proam.example.jp/#/tabs/chat/01J',
    });
    t.diagnostic(`${mail.subject}\n${mail.text}`);
    assert.match(mail.subject, /^【ProAm Connect】.*チャット/);
    assert.match(mail.text, /未読のメッセージが3件/);
    assert.match(mail.text, /6時間に1回まで/);
  });
});
