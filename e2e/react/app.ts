/**
 * A single-page partner app built with `<SvcWidget>` (sdk/react), for e2e/react-widget.spec.ts:
 * two client-side routes, the widget on one of them, under React's StrictMode (which mounts,
 * unmounts and mounts every effect once more in development, as a hostile host would).
 */
import { createElement as h, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { SvcWidget, type SvcResult } from '../../sdk/react/src/index.ts';

declare const __SERVICE_URL__: string;

const record = window as Window & { svcStates?: string[]; svcErrors?: string[] };
record.svcStates = [];
record.svcErrors = [];

function App() {
  const [path, setPath] = useState(location.pathname);
  const [result, setResult] = useState('');
  useEffect(() => {
    const follow = () => setPath(location.pathname);
    addEventListener('popstate', follow);
    return () => removeEventListener('popstate', follow);
  }, []);
  const go = (to: string) => {
    history.pushState(null, '', to);
    setPath(to);
  };
  const onSuccess = (value: SvcResult) => setResult('grant_code' in value ? value.grant_code : value.attestation);
  return h(
    'div',
    null,
    h(
      'nav',
      null,
      h('button', { type: 'button', onClick: () => go('/e2e/react/verify') }, 'Verify'),
      h('button', { type: 'button', onClick: () => go('/e2e/react/about') }, 'About'),
    ),
    path === '/e2e/react/verify'
      ? h(SvcWidget, {
          widgetUrl: __SERVICE_URL__,
          partnerId: 'pk_test_demo',
          successPath: '/e2e/react/verify',
          scopes: ['isAdult'],
          locale: 'en',
          theme: 'light',
          size: 'compact',
          accent: '#0a7d4f',
          className: 'age-check',
          onSuccess,
          onState: (state) => record.svcStates!.push(state),
          onError: (error) => record.svcErrors!.push(error.code),
        })
      : h('p', null, 'About us'),
    h('output', { 'data-testid': 'result' }, result),
  );
}

createRoot(document.getElementById('root')!).render(h(StrictMode, null, h(App)));
