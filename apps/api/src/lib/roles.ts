import { ApiError } from './api-error.js';
import type { Caller } from './route.js';

/** Company staff only; everyone else gets 403 and nothing happens. */
export function requireAdmin(caller: Caller | null): void {
  if (caller?.type !== 'admin') throw new ApiError('Forbidden');
}
