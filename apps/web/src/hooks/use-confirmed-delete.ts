import { useState } from 'react';

type Removal = PromiseLike<{ data: unknown } | { error: unknown }>;

/**
 * The item a ConfirmDialog asks about; `confirmDelete` removes it and calls
 * `onDeleted` only when the API did delete it (errors show globally).
 */
export const useConfirmedDelete = <T extends { id: string }>(
  remove: (id: string) => Removal,
  onDeleted: (item: T) => void,
) => {
  const [toDelete, setToDelete] = useState<T | null>(null);
  const confirmDelete = async () => {
    if (!toDelete) return;
    const result = await remove(toDelete.id);
    setToDelete(null);
    if ('data' in result) onDeleted(toDelete);
  };
  return { toDelete, setToDelete, confirmDelete };
};
