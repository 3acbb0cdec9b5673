import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Me, onUnauthorized } from './api.js';
import { Shell } from './layout.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { ChangePasswordPage } from './pages/change-password.js';
import { NotYetPage } from './pages/not-yet.js';
import { SignInPage } from './pages/sign-in.js';
import { navigate, usePath } from './router.js';
import './styles.css';

const HOME = '/settings/api-keys';

/** Which page a path shows, once signed in. */
const pageFor = (path: string, me: Me) => {
  if (path === '/settings/api-keys') return <ApiKeysPage me={me} />;
  if (path === '/settings/password') return <ChangePasswordPage />;
  return <NotYetPage path={path} />;
};

const App = () => {
  const path = usePath();
  /** undefined while asking the server; null when signed out. */
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [after, setAfter] = useState<string | null>(null);

  useEffect(() => {
    api.session().then(setMe, () => setMe(null));
    return onUnauthorized(() => setMe(null));
  }, []);

  useEffect(() => {
    if (me === null && path !== '/sign-in') {
      if (path !== '/') setAfter(path);
      navigate('/sign-in', { replace: true });
    } else if (me && (path === '/sign-in' || path === '/' || path === '/settings')) {
      navigate(HOME, { replace: true });
    }
  }, [me, path]);

  useEffect(() => {
    const title = me ? (path === '/settings/password' ? 'Password' : 'API keys') : 'Sign in';
    document.title = `${title} · Lookout`;
  }, [me, path]);

  if (me === undefined) return <div class="loading" aria-busy="true" />;
  if (me === null)
    return (
      <SignInPage
        onSignedIn={(m) => {
          setMe(m);
          navigate(after ?? HOME, { replace: true });
          setAfter(null);
        }}
      />
    );
  return (
    <Shell me={me} path={path} onSignedOut={() => setMe(null)}>
      {pageFor(path, me)}
    </Shell>
  );
};

render(<App />, document.getElementById('app')!);
