import { useNow } from '@/hooks/use-now';
import { todayInJapan } from '@/lib/format';

/**
 * Today's date in Japan time, `YYYY-MM-DD`, checked every 30 s: a card left
 * open past midnight drops its キャンセル button without a reload.
 */
export const useTodayInJapan = (): string => todayInJapan(new Date(useNow()));
