import { useState } from 'preact/hooks';
import { Api, ApiError } from '../api';

/** Sign in with an API key (V2 token route) or a user name and password (V1 user token route). */
export function SignIn({ api }: { api: Api }) {
  const [mode, setMode] = useState<'key' | 'user'>('key');
  const [apiKey, setApiKey] = useState('');
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.signIn(mode === 'key' ? { apiKey: apiKey.trim() } : { userName, password });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.suspended
          ? 'This company is suspended.'
          : failure instanceof ApiError && failure.status === 401
            ? 'These credentials are not valid.'
            : failure instanceof Error
              ? failure.message
              : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Fleet console</h1>
        <div class="tabs" role="tablist" aria-label="Sign in with">
          <button type="button" role="tab" aria-selected={mode === 'key'} onClick={() => setMode('key')}>
            API key
          </button>
          <button type="button" role="tab" aria-selected={mode === 'user'} onClick={() => setMode('user')}>
            User name
          </button>
        </div>
        {mode === 'key' ? (
          <label>
            API key
            <input
              name="apiKey"
              type="password"
              autoComplete="off"
              required
              value={apiKey}
              onInput={(event) => setApiKey((event.target as HTMLInputElement).value)}
            />
          </label>
        ) : (
          <>
            <label>
              User name
              <input
                name="userName"
                autoComplete="username"
                required
                value={userName}
                onInput={(event) => setUserName((event.target as HTMLInputElement).value)}
              />
            </label>
            <label>
              Password
              <input
                name="password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onInput={(event) => setPassword((event.target as HTMLInputElement).value)}
              />
            </label>
          </>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">The token is kept for this tab only; the key is never stored.</p>
      </form>
    </main>
  );
}
