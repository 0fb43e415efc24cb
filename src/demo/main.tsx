/** The designers' page: the only file here with side effects. */
import { render } from 'preact';
import { DemoPage } from './DemoPage.tsx';
import { createLiveModel } from './live.ts';
import './demo.css';

// `?partner=` lets the page point at an example partner that does not run on the default port.
const partnerUrl = new URLSearchParams(location.search).get('partner')?.match(/^https?:\/\/[^\s"'<>]+$/)?.[0] ?? 'http://localhost:8788';

render(<DemoPage live={createLiveModel()} partnerUrl={partnerUrl} />, document.getElementById('app')!);
