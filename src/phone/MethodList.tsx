import type { PhoneMethod } from '../protocol/wire.ts';
import type { PhoneCopy } from './copy/index.ts';
import type { PhoneModel } from './model.ts';

type RealMethod = Exclude<PhoneMethod, { id: 'sandbox' }>;

/**
 * The ways to prove the request other than the persona picker, in the service's order: the wallet
 * on this phone (the Digital Credentials API where the browser has it, and the wallet link), then
 * each identity provider by its name. The first action is the primary one.
 */
export function MethodList(props: { copy: PhoneCopy; model: PhoneModel; methods: RealMethod[]; busy: string | null }) {
  const { copy, model, methods, busy } = props;
  const actions = methods.flatMap((method) => {
    if (method.id !== 'eudi_wallet') {
      return [
        (primary: boolean) => (
          <button
            key={method.id}
            type="button"
            class={buttonClass(primary)}
            data-method={method.id}
            disabled={busy !== null}
            onClick={() => void model.startProvider(method.id)}
          >
            {busy === method.id ? copy.opening(method.name) : copy.continueWith(method.name)}
          </button>
        ),
      ];
    }
    const wallet = [
      (primary: boolean) => (
        // A link the phone hands to its wallet app (av://); nothing to disable, it leaves the page.
        <a key="wallet-link" class={buttonClass(primary)} href={method.wallet_link} data-method="eudi_wallet_link">
          {copy.openWalletApp}
        </a>
      ),
    ];
    if (!model.canUseWalletHere) return wallet;
    return [
      (primary: boolean) => (
        <button
          key="wallet-here"
          type="button"
          class={buttonClass(primary)}
          data-method="eudi_wallet"
          disabled={busy !== null}
          onClick={() => void model.useWallet()}
        >
          {busy === 'eudi_wallet' ? copy.walletWaiting : copy.useWalletHere}
        </button>
      ),
      ...wallet,
    ];
  });
  return (
    <div class="phone-card phone-method-list" data-testid="methods">
      {actions.map((render, index) => render(index === 0))}
    </div>
  );
}

function buttonClass(primary: boolean): string {
  return `phone-button ${primary ? 'phone-button-primary' : 'phone-button-secondary'}`;
}
