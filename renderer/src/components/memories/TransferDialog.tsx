import { useT } from '../../use-t';
import { Dialog } from '../Dialog';
import { TransferPanel } from './TransferPanel';

export function TransferDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  return (
    <Dialog title={t('transfer.title')} onClose={onClose} wide>
      <TransferPanel />
    </Dialog>
  );
}
