import { useState } from 'react';

type Removal = PromiseLike<{ data: unknown } | { error: unknown }>;

/** What a `useDelete…Mutation()` hook answers: the trigger and its state. */
type DeleteMutation = readonly [
  (id: string) => Removal,
  { isLoading: boolean },
];

/**
 * The item a ConfirmDeleteDialog asks about, and the dialog's busy / confirm /
 * cancel wiring (spread as `{...dialog}`): confirming removes the item and
 * calls `onDeleted` only when the API did delete it (errors show globally).
 */
export const useConfirmedDelete = <T extends { id: string }>(
  [remove, { isLoading }]: DeleteMutation,
  onDeleted: (item: T) => void,
) => {
  const [toDelete, setToDelete] = useState<T | null>(null);
  const confirmDelete = async () => {
    if (!toDelete) return;
    const result = await remove(toDelete.id);
    setToDelete(null);
    if ('data' in result) onDeleted(toDelete);
  };
  const dialog = {
    busy: isLoading,
    onConfirm: () => void confirmDelete(),
    onCancel: () => setToDelete(null),
  };
  return { toDelete, setToDelete, dialog };
};
