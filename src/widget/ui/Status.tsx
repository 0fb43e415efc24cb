/**
 * @jsxRuntime classic
 * @jsx h
 */
import { h } from 'preact';
import { Icon, type IconName } from './Icon.tsx';

/**
 * Every state but the QR code: an icon, a one-line title, one line of help, maybe a button; the
 * words in `.text`, below the icon, or beside it in the compact card.
 */
export function Status(props: { icon: IconName; title: string; help: string; action?: string; onAction?: () => void }) {
  return (
    <div class="state">
      <Icon name={props.icon} />
      <div class="text">
        <h2 class="title">{props.title}</h2>
        <p class="help">{props.help}</p>
        {props.action && (
          <button class="button" onClick={props.onAction} data-testid="svc-retry">
            {props.action}
          </button>
        )}
      </div>
    </div>
  );
}
