import type { Copy } from './fr.ts';

/**
 * Portuguese copy, as written in Portugal (an addition to the spec's fr and en): the formal
 * third person ("Verifique a sua idade"), which Brazilian readers read as polite too.
 */
export const pt: Copy = {
  brand: 'Verificação de idade',
  testMode: 'Modo de teste',
  creatingTitle: 'Em preparação',
  creatingHelp: 'Demora apenas alguns segundos.',
  waitingTitle: 'Leia este código QR com o seu telemóvel',
  expiresIn: 'Este código expira dentro de {t}',
  qrLabel: 'Código QR para ler com o telemóvel e verificar a sua idade',
  openHere: 'Abrir neste dispositivo',
  mobileTitle: 'Verifique a sua idade',
  mobileHelp: 'Na aplicação, demora apenas alguns segundos.',
  openApp: 'Abrir a aplicação',
  showQr: 'Mostrar antes um código QR',
  scannedTitle: 'Verificação em curso',
  scannedHelp: 'Continue no seu telemóvel.',
  completedTitle: 'Idade verificada',
  completedHelp: 'Obrigado, está tudo em ordem.',
  confirmingTitle: 'A confirmar',
  confirmingHelp: 'Só mais alguns segundos…',
  redirectingTitle: 'Idade verificada',
  redirectingHelp: 'A redirecionar…',
  failedTitle: 'Não foi possível verificar a sua idade',
  failedHelp: 'Pode tentar novamente de imediato.',
  cancelledTitle: 'Verificação cancelada',
  cancelledHelp: 'Pode recomeçar quando quiser.',
  expiredTitle: 'Código QR expirado',
  expiredHelp: 'Será apresentado um novo código automaticamente.',
  errorTitle: 'Verificação indisponível',
  errorHelp: 'O serviço não está a responder neste momento.',
  timeoutTitle: 'Não foi possível confirmar',
  timeoutHelp: 'O site não conseguiu confirmar a sua verificação.',
  retry: 'Tentar novamente',
  openWalletApp: 'Abrir a sua aplicação de verificação de idade',
  useWalletHere: 'Usar uma carteira neste dispositivo',
  walletFailedTitle: 'A carteira não partilhou nenhuma prova',
  walletFailedHelp: 'Tente novamente ou leia o código QR com o seu telemóvel.',
  backToQr: 'Voltar ao código QR',
};
