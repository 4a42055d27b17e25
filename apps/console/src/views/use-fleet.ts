import { useEffect, useState } from 'preact/hooks';
import type { Fleet } from '../fleet';

/** Re-renders the component when the fleet announces a change. */
export function useFleet(fleet: Fleet): void {
  const [, setVersion] = useState(0);
  useEffect(() => fleet.subscribe(() => setVersion((version) => version + 1)), [fleet]);
}

/** A value loaded from the API, with its loading and error states. */
export function useLoaded<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ value?: T; error?: string; loading: boolean }>({ loading: true });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (value) => current && setState({ value, loading: false }),
      (error: unknown) =>
        current &&
        setState({ error: error instanceof Error ? error.message : String(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, version]);
  return { ...state, reload: () => setVersion((v) => v + 1) };
}

export function formatTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const date = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { timeZone, dateStyle: 'short', timeStyle: 'medium' });
}

/** What a failed call says to the user. */
export const errorText = (failure: unknown): string =>
  failure instanceof Error ? failure.message : String(failure);
