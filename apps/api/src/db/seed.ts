import { eq } from 'drizzle-orm';
import {
  TERMS_VERSION,
  type CompetitionResult,
  type StatusRound,
} from '@proam/contract';
import type { Database } from './database.js';
import { countSql } from './database.js';
import {
  competitions,
  likes,
  messageReads,
  messages,
  news,
  reservations,
  reviews,
  waitlist,
  schedules,
  users,
} from './schema.js';
import { hashPassword } from '../lib/password.js';
import { newId } from '../lib/ids.js';
import { addDays, japanDate } from '../lib/time.js';

export const DEMO_ADMIN = {
  email: 'admin@example.jp',
  password: 'proam-admin-2026',
};
export const DEMO_PASSWORD = 'proam-demo-2026';

/** The demo pros. `lessonFee`, the fee on the profile, is the fee of every one of their demo lessons. */
const PROS = [
  {
    userName: '佐藤 健一',
    nameKana: 'さとう けんいち',
    area: '東京都',
    affiliation: 'PGAティーチングプロA級',
    career: 'ツアー出場12年。2019年関東プロ選手権3位。',
    lessonFee: 23000,
    homeCourse: '若洲ゴルフリンクス',
    specialty: 'ドライバーの飛距離アップ、コースマネジメント',
    bio: '「楽しく、確実に上達する」をモットーに、ラウンドの中で一打一打の考え方をお伝えします。初めてのラウンドレッスンでも安心してご参加ください。',
  },
  {
    userName: '高橋 美咲',
    nameKana: 'たかはし みさき',
    area: '神奈川県',
    affiliation: 'LPGAティーチングプロ',
    career: 'ステップ・アップ・ツアー優勝1回。指導歴8年。',
    lessonFee: 20000,
    homeCourse: '大箱根カントリークラブ',
    specialty: 'アプローチ、バンカー、女性ゴルファーの基礎づくり',
    bio: '女性やシニアの方のスコアアップが得意です。100切り、90切りを目指す方、グリーン周りから一緒に変えていきましょう。',
  },
  {
    userName: '鈴木 大輔',
    nameKana: 'すずき だいすけ',
    area: '千葉県',
    affiliation: 'JGTOツアープロ',
    career: 'ツアー通算2勝。現在はレッスン活動に注力。',
    lessonFee: 28000,
    homeCourse: '千葉夷隅ゴルフクラブ',
    specialty: 'アイアンショットの精度、ゲームプラン',
    bio: '試合で培った実戦的なマネジメントをラウンドでお伝えします。ベストスコア更新を本気で目指す方、お待ちしています。',
  },
  {
    userName: '田中 由紀',
    nameKana: 'たなか ゆき',
    area: '大阪府',
    affiliation: 'PGAティーチングプロB級',
    career: '関西を中心にスクール講師として活動。',
    lessonFee: 17000,
    homeCourse: '茨木国際ゴルフ倶楽部',
    specialty: 'パッティング、初心者のコースデビュー',
    bio: 'コースデビューの不安をなくすところからサポートします。ルールやマナーも丁寧にご説明しますので、お気軽にどうぞ。',
  },
  {
    userName: '伊藤 翔太',
    nameKana: 'いとう しょうた',
    area: '愛知県',
    affiliation: 'PGA会員',
    career: 'ミニツアー賞金ランキング上位常連。',
    lessonFee: 19000,
    homeCourse: '三好カントリー倶楽部',
    specialty: 'スイング改造、ショートゲーム',
    bio: '動画を使った分かりやすい解説が好評です。ラウンド後に振り返りシートをお渡ししています。',
  },
];

const AMATEURS = [
  {
    userName: '山本 拓也',
    nameKana: 'やまもと たくや',
    area: '東京都',
    averageScore: 98,
    experienceYears: 3,
    bio: '週末ゴルファーです。今年こそ90台前半で安定させたいです。',
  },
  {
    userName: '中村 あゆみ',
    nameKana: 'なかむら あゆみ',
    area: '神奈川県',
    averageScore: 110,
    experienceYears: 1,
    bio: 'ゴルフを始めて1年。アプローチが苦手です。',
  },
  {
    userName: '小林 誠',
    nameKana: 'こばやし まこと',
    area: '千葉県',
    averageScore: 88,
    experienceYears: 10,
    bio: '80台前半が目標。競技にも挑戦してみたいです。',
  },
  {
    userName: '加藤 さくら',
    nameKana: 'かとう さくら',
    area: '東京都',
    averageScore: 105,
    experienceYears: 2,
    bio: '友人とのラウンドをもっと楽しめるようになりたいです。',
  },
  {
    userName: '吉田 浩二',
    nameKana: 'よしだ こうじ',
    area: '大阪府',
    averageScore: 95,
    experienceYears: 6,
    bio: 'ドライバーのスライスを直したいです。',
  },
  {
    userName: '山田 恵',
    nameKana: 'やまだ めぐみ',
    area: '愛知県',
    averageScore: 100,
    experienceYears: 4,
    bio: '平日にラウンドできるレッスンを探しています。',
  },
];

const COURSES: Record<string, string[]> = {
  東京都: ['若洲ゴルフリンクス', '府中カントリークラブ'],
  神奈川県: ['大箱根カントリークラブ', '相模原ゴルフクラブ'],
  千葉県: ['千葉夷隅ゴルフクラブ', '成田ヒルズカントリークラブ'],
  大阪府: ['茨木国際ゴルフ倶楽部', '枚方国際ゴルフ倶楽部'],
  愛知県: ['三好カントリー倶楽部', '愛知カンツリー倶楽部'],
};

/**
 * The demo world (README, Demo logins): an admin, pros and amateurs with Japanese
 * profiles, a month of round lessons with some reservations and chat, likes,
 * competitions (upcoming, finished with results, one draft) and news. It runs
 * only on an empty database, in one transaction.
 */
export async function seedDemo(
  database: Database,
  today = japanDate(),
): Promise<boolean> {
  const [{ n } = { n: 0 }] = await database.db
    .select({ n: countSql })
    .from(users);
  if (n > 0) return false;

  const demoHash = await hashPassword(DEMO_PASSWORD);
  const adminHash = await hashPassword(DEMO_ADMIN.password);
  const now = Date.now();
  const daysAgo = (d: number) => new Date(now - d * 86_400_000);

  await database.db.transaction(async (tx) => {
    const adminId = newId();
    await tx.insert(users).values({
      id: adminId,
      type: 'admin',
      email: DEMO_ADMIN.email,
      passwordHash: adminHash,
      userName: '運営事務局',
      nameKana: 'うんえいじむきょく',
      area: '東京都',
      createdAt: daysAgo(400),
    });
    const proIds = PROS.map(() => newId());
    const amaIds = AMATEURS.map(() => newId());
    /** Demo members signing in as `<prefix>N@example.jp` with the demo password. */
    const demoMembers = (
      ids: string[],
      prefix: string,
      people: Omit<
        typeof users.$inferInsert,
        'id' | 'email' | 'passwordHash' | 'createdAt'
      >[],
      ageInDays: (i: number) => number,
    ) =>
      tx.insert(users).values(
        people.map((p, i) => ({
          id: ids[i]!,
          email: `${prefix}${i + 1}@example.jp`,
          passwordHash: demoHash,
          ...p,
          createdAt: daysAgo(ageInDays(i)),
        })),
      );
    await demoMembers(
      proIds,
      'pro',
      PROS.map((p) => ({ type: 'pro' as const, verified: true, ...p })),
      (i) => 300 - i * 20,
    );
    await demoMembers(
      amaIds,
      'ama',
      AMATEURS.map((a) => ({ type: 'amature' as const, ...a })),
      (i) => 60 - i * 9,
    );

    // Likes: amateurs like pros; like_count is kept equal to the likes received.
    const likePairs: [number, number][] = [
      [0, 0],
      [0, 2],
      [1, 1],
      [2, 2],
      [2, 0],
      [3, 1],
      [4, 3],
      [5, 4],
      [1, 0],
    ];
    await tx.insert(likes).values(
      likePairs.map(([a, p], i) => ({
        id: newId(),
        userId: amaIds[a]!,
        likeUserId: proIds[p]!,
        createdAt: daysAgo(20 - i),
      })),
    );
    for (const [p, id] of proIds.entries()) {
      const count = likePairs.filter(([, q]) => q === p).length;
      if (count)
        await tx
          .update(users)
          .set({ likeCount: count })
          .where(eq(users.id, id));
    }

    // A month of round lessons: each pro offers one every few days from a week ago to 30 days ahead.
    type Lesson = typeof schedules.$inferInsert;
    const lessons: Lesson[] = [];
    PROS.forEach((pro, p) => {
      const courses = COURSES[pro.area] ?? [pro.homeCourse];
      for (let d = -7 + p; d <= 30; d += 4) {
        const date = addDays(today, d);
        const past = d < 0;
        lessons.push({
          id: newId(),
          proId: proIds[p]!,
          date,
          startTime: d % 8 === 0 ? '07:30' : '09:00',
          endTime: d % 8 === 0 ? '12:30' : '14:00',
          place: courses[(d + 8) % courses.length]!,
          area: pro.area,
          capacity: 3 + (d % 2 === 0 ? 1 : 0),
          fee: pro.lessonFee,
          note: 'ハーフラウンド＋練習グリーンでのショートゲーム指導。プレーフィーは別途コースにてお支払いください。',
          statusRound: past ? 'done' : 'open',
        });
      }
    });
    await tx.insert(schedules).values(lessons);

    // Reservations: each amateur joins a few lessons of the pros in or near their area.
    const booked: { scheduleId: string; userId: string }[] = [];
    amaIds.forEach((amaId, a) => {
      const own = lessons.filter((l) => l.proId === proIds[a % PROS.length]);
      for (const l of own.slice(1, 4))
        booked.push({ scheduleId: l.id, userId: amaId });
    });
    // Fill one upcoming lesson of pro1 completely so a 満員 lesson exists, never beyond its
    // capacity, without ama2: ama2 can try its waitlist (キャンセル待ち), where another amateur already waits.
    const fullLesson = lessons.find(
      (l) =>
        l.proId === proIds[0] &&
        l.date > today &&
        l.capacity === 3 &&
        !booked.some((b) => b.scheduleId === l.id && b.userId === amaIds[1]),
    )!;
    for (const amaId of amaIds) {
      const taken = booked.filter((b) => b.scheduleId === fullLesson.id);
      if (taken.length >= fullLesson.capacity) break;
      if (amaId !== amaIds[1] && !taken.some((b) => b.userId === amaId))
        booked.push({ scheduleId: fullLesson.id, userId: amaId });
    }
    const feeOf = new Map(lessons.map((l) => [l.id, l.fee]));
    await tx.insert(reservations).values(
      booked.map((b) => ({
        ...b,
        status: 'confirmed' as const,
        amount: feeOf.get(b.scheduleId)!,
      })),
    );
    const waiting = amaIds.find(
      (id, a) =>
        a >= 3 &&
        !booked.some((b) => b.scheduleId === fullLesson.id && b.userId === id),
    );
    if (waiting)
      await tx
        .insert(waitlist)
        .values({ scheduleId: fullLesson.id, userId: waiting });
    for (const l of lessons) {
      const count = booked.filter((b) => b.scheduleId === l.id).length;
      if (count === 0) continue;
      const status: StatusRound =
        l.statusRound === 'done'
          ? 'done'
          : count >= l.capacity
            ? 'full'
            : 'open';
      await tx
        .update(schedules)
        .set({
          reservedCount: count,
          statusRound: status,
        })
        .where(eq(schedules.id, l.id));
    }

    // Reviews (口コミ): pro1's earlier lessons, rated by the amateurs who took them; the
    // lesson ama1 took three days ago is left unreviewed, for ama1 to try.
    const REVIEWS: [number, number, string, string | null][] = [
      [
        1,
        5,
        'アプローチの距離感が劇的に良くなりました。説明がとても丁寧です。',
        'ありがとうございます！次回はバンカーも練習しましょう。',
      ],
      [2, 4, 'コースマネジメントの考え方が勉強になりました。', null],
      [
        3,
        5,
        '初めてのラウンドレッスンでしたが、緊張せずに楽しめました。',
        null,
      ],
    ];
    const reviewed: Lesson[] = REVIEWS.map((_, k) => ({
      id: newId(),
      proId: proIds[0]!,
      date: addDays(today, -14 - 7 * k),
      startTime: '09:00',
      endTime: '14:00',
      place: (COURSES[PROS[0]!.area] ?? [PROS[0]!.homeCourse])[0]!,
      area: PROS[0]!.area,
      capacity: 3,
      fee: PROS[0]!.lessonFee,
      statusRound: 'done',
      reservedCount: 1,
    }));
    await tx.insert(schedules).values(reviewed);
    await tx.insert(reservations).values(
      REVIEWS.map(([a], k) => ({
        scheduleId: reviewed[k]!.id,
        userId: amaIds[a]!,
        status: 'confirmed' as const,
        amount: reviewed[k]!.fee,
      })),
    );
    await tx.insert(reviews).values(
      REVIEWS.map(([a, rating, comment, reply], k) => ({
        id: newId(),
        scheduleId: reviewed[k]!.id,
        proId: proIds[0]!,
        userId: amaIds[a]!,
        rating,
        comment,
        reply,
        createdAt: daysAgo(13 + 7 * k),
        updatedAt: daysAgo(13 + 7 * k),
      })),
    );
    await tx
      .update(users)
      .set({
        ratingSum: REVIEWS.reduce((t, [, r]) => t + r, 0),
        reviewCount: REVIEWS.length,
      })
      .where(eq(users.id, proIds[0]!));

    // A pro who registered but whom the company has not checked yet (確認中).
    await tx.insert(users).values({
      id: newId(),
      type: 'pro',
      email: 'pro6@example.jp',
      passwordHash: demoHash,
      userName: '新井 翔太',
      nameKana: 'あらい しょうた',
      area: '埼玉県',
      bio: '2026年にプロテスト合格。ジュニア指導の経験を活かし、初心者の方にも分かりやすいレッスンを心がけます。',
      homeCourse: '武蔵丘ゴルフコース',
      specialty: 'ドライバー、初心者指導',
      lessonFee: 12000,
      verified: false,
      createdAt: daysAgo(2),
    });

    // Chat in the lessons that have players.
    const chatLessons = lessons
      .filter((l) => booked.some((b) => b.scheduleId === l.id))
      .slice(0, 4);
    for (const l of chatLessons) {
      const players = booked
        .filter((b) => b.scheduleId === l.id)
        .map((b) => b.userId);
      const lines: [string, string][] = [
        [
          l.proId,
          `ご予約ありがとうございます。${l.place}で${l.startTime}集合です。当日はよろしくお願いします。`,
        ],
        [
          players[0]!,
          'よろしくお願いします！アプローチを重点的に見ていただけると嬉しいです。',
        ],
        [
          l.proId,
          '承知しました。グリーン周りの時間を多めに取りますね。雨天の場合は前日18時までにご連絡します。',
        ],
      ];
      if (players[1])
        lines.push([
          players[1],
          '初参加です。持ち物はいつものラウンドと同じで大丈夫でしょうか？',
        ]);
      const base = now - 3 * 86_400_000;
      const rows = lines.map(([sender, msg], i) => ({
        partitionKey: l.id,
        sortKey: newId(),
        sender,
        msg,
        createTime: new Date(base + i * 3_600_000),
      }));
      await tx.insert(messages).values(rows);
      // Everyone has read all but the last message, so unread badges show.
      const reads = rows.slice(0, -1).flatMap((m) =>
        [l.proId, ...players]
          .filter((u) => u !== m.sender)
          .map((userId) => ({
            partitionKey: m.partitionKey,
            sortKey: m.sortKey,
            userId,
          })),
      );
      if (reads.length) await tx.insert(messageReads).values(reads);
    }

    const results = (names: string[], scores: number[]): CompetitionResult[] =>
      names.map((playerName, i) => ({
        rank: i + 1,
        playerName,
        score: scores[i]!,
      }));
    await tx.insert(competitions).values([
      {
        id: newId(),
        name: 'ProAm Connect 秋季オープン',
        date: addDays(today, -40),
        venue: '府中カントリークラブ',
        area: '東京都',
        description:
          'プロとアマチュアが同じ組で回る、秋恒例のプロアム大会。ダブルペリア方式で順位を決定しました。',
        capacity: 48,
        entryFee: 18000,
        entryDeadline: addDays(today, -55),
        status: 'finished',
        results: results(
          ['小林 誠', '山本 拓也', '吉田 浩二', '加藤 さくら', '中村 あゆみ'],
          [72, 74, 75, 77, 78],
        ),
      },
      {
        id: newId(),
        name: '関西ミッドアマ・チャレンジカップ',
        date: addDays(today, -12),
        venue: '茨木国際ゴルフ倶楽部',
        area: '大阪府',
        description:
          '関西エリアの会員限定ストロークプレー競技。上位入賞者には次回大会のシード権を贈呈しました。',
        capacity: 36,
        entryFee: 15000,
        entryDeadline: addDays(today, -26),
        status: 'finished',
        results: results(
          ['吉田 浩二', '山田 恵', '小林 誠', '山本 拓也'],
          [79, 82, 83, 85],
        ),
      },
      {
        id: newId(),
        name: 'ProAm Connect ウィンターカップ',
        date: addDays(today, 21),
        venue: '千葉夷隅ゴルフクラブ',
        area: '千葉県',
        description:
          'プロ1名とアマチュア3名で組むチーム戦。初めての方も楽しめるベストボール方式です。表彰式・懇親会付き。',
        capacity: 40,
        entryFee: 22000,
        entryDeadline: addDays(today, 10),
        status: 'open',
        results: [],
      },
      {
        id: newId(),
        name: 'レディース＆ビギナーズ交流ラウンド',
        date: addDays(today, 35),
        venue: '大箱根カントリークラブ',
        area: '神奈川県',
        description:
          '女性とゴルフ歴3年未満の方を対象にした交流ラウンド。高橋美咲プロによるワンポイントレッスン付き。',
        capacity: 24,
        entryFee: 12000,
        entryDeadline: addDays(today, 25),
        status: 'open',
        results: [],
      },
      {
        id: newId(),
        name: '中部オープン予選会（会員枠）',
        date: addDays(today, 9),
        venue: '三好カントリー倶楽部',
        area: '愛知県',
        description: '会員枠の予選会です。エントリーは締め切りました。',
        capacity: 30,
        entryFee: 10000,
        entryDeadline: addDays(today, -1),
        status: 'closed',
        results: [],
      },
      {
        id: newId(),
        name: '2027 新春プロアム（企画中）',
        date: addDays(today, 60),
        venue: '若洲ゴルフリンクス',
        area: '東京都',
        description: '詳細は調整中です。',
        capacity: 48,
        entryFee: 20000,
        status: 'draft',
        results: [],
      },
    ]);

    await tx.insert(news).values([
      {
        id: newId(),
        title: 'ウィンターカップのエントリー受付を開始しました',
        category: '大会',
        publishedAt: daysAgo(2),
        body: `ProAm Connect ウィンターカップ（${addDays(today, 21)} 開催、千葉夷隅ゴルフクラブ）のエントリー受付を開始しました。\n\nプロ1名とアマチュア3名でチームを組むベストボール方式です。ゴルフ歴やスコアを問わずご参加いただけます。\n\nエントリーは、お問い合わせフォームでお問い合わせ種別「大会・イベントについて」を選び、大会名を添えてお申し込みください。`,
      },
      {
        id: newId(),
        title: '秋季オープンの結果を掲載しました',
        category: '大会結果',
        publishedAt: daysAgo(38),
        body: '先日開催した ProAm Connect 秋季オープンには48名の皆さまにご参加いただきました。優勝は小林誠さん（72）。イベント日程・結果ページで全順位をご覧いただけます。',
      },
      {
        id: newId(),
        title: '新しいプロ会員が5名加わりました',
        category: 'お知らせ',
        publishedAt: daysAgo(10),
        body: '関東・関西・中部エリアで活躍するプロゴルファー5名が新たにプロ会員として登録しました。いいねタブの検索から、エリアや料金、得意分野でプロを探してみてください。',
      },
      {
        id: newId(),
        title: '年末年始の営業について',
        category: 'お知らせ',
        publishedAt: daysAgo(1),
        body: '12月29日から1月3日まで、お問い合わせへの回答をお休みします。期間中にいただいたお問い合わせは1月5日以降、順次ご回答いたします。',
      },
      {
        id: newId(),
        title: 'はじめてのラウンドレッスン応援キャンペーンのご案内',
        category: 'キャンペーン',
        publishedAt: daysAgo(5),
        body: 'これからラウンドレッスンを始めたい方に向けて、「はじめてのラウンドレッスン応援キャンペーン」を実施しています。会員登録とプロの検索は無料。予約はレッスン前日の23時59分（日本時間）まで無料でキャンセルでき、予約したレッスンのチャットでプロに事前の相談もできます。レッスン料の割引はありません。詳しくは、トップページまたはアマチュア会員メニューからキャンペーン詳細ページをご覧ください。',
      },
      {
        id: newId(),
        title: 'アプリの新機能：チャットに既読表示が付きました',
        category: 'アップデート',
        publishedAt: daysAgo(20),
        body: 'ラウンドレッスンのチャットで、メッセージが読まれたかどうかが分かる既読表示に対応しました。',
      },
      {
        id: newId(),
        title: '【予約公開】2027年 新春プロアムのお知らせ',
        category: '大会',
        publishedAt: new Date(now + 7 * 86_400_000),
        body: '2027年の新春プロアムの開催が決定しました。詳細は後日お知らせします。',
      },
    ]);

    // Demo members have agreed to the 利用規約 in force, so they go straight in.
    await tx
      .update(users)
      .set({ termsVersion: TERMS_VERSION, termsAcceptedAt: new Date(now) });
  });
  return true;
}
