import type { SocketEvent } from '@proam/contract';

type Listener = (event: SocketEvent) => void;

/**
 * The chat socket's events, fanned out to the cache entries that listen: the
 * socket (chatStream) only publishes, and each cached conversation or list
 * writes itself with `updateCachedData` while it is in the cache.
 */
export function createChatEvents() {
  const listeners = new Set<Listener>();
  return {
    publish(event: SocketEvent): void {
      for (const listener of listeners) listener(event);
    },
    /** Returns the unsubscribe. */
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const chatEvents = createChatEvents();
