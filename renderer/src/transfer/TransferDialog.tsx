import { useT } from '../i18n/use-t';
import { Dialog } from '../ui/Dialog';
import { TransferPanel } from './TransferPanel';

export function TransferDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  return (
    <Dialog title={t('transfer.title')} onClose={onClose} wide>
      <TransferPanel />
    </Dialog>
  );
}
