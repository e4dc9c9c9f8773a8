import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $adminMessage, clearMessage, showFlashedMessage } from '../../stores/admin.ts';
import { MessageBanner } from './MessageBanner.tsx';

/** The layout's banner island: shows the page's current message and any message left by the previous page. */
export default function AdminMessages() {
  const message = useStore($adminMessage);
  useEffect(() => showFlashedMessage(), []);
  if (!message) return null;
  return <MessageBanner type={message.type} message={message.text} liveMs={message.liveMs} onClose={clearMessage} />;
}
