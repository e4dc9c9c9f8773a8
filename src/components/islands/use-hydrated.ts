import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** False while rendering on the server and during hydration, true once the island runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
