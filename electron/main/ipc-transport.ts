// The one place ipcMain is used: every call goes through the contract's dispatcher, after the
// sender is checked to be our own window's top frame showing our own page.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { Dispatch } from '../../shared/contract-kit';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../shared/transport-names';
import type { EventBus } from '../../core/events';
import { isRendererUrl } from './sender-url';

function isOwnSender(event: IpcMainInvokeEvent, own: () => WebContents | null, rendererUrlPrefix: string): boolean {
  const wc = own();
  if (!wc || event.sender.id !== wc.id) return false;
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  return isRendererUrl(frame.url, rendererUrlPrefix);
}

export function wireIpc(
  dispatch: Dispatch,
  events: EventBus,
  own: () => WebContents | null,
  rendererUrlPrefix: string,
): () => void {
  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, args: unknown) =>
    dispatch(name, args, { trusted: isOwnSender(event, own, rendererUrlPrefix), sender: `ipc:${event.sender.id}` }),
  );
  const unsubscribe = events.subscribe((name, payload) => {
    const wc = own();
    if (wc && !wc.isDestroyed()) wc.send(EVENT_CHANNEL, name, payload);
  });
  return () => {
    ipcMain.removeHandler(CALL_CHANNEL);
    unsubscribe();
  };
}
