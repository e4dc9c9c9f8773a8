import { formatLiveTime } from '../../stores/admin.ts';

export interface MessageBannerProps {
  type: 'success' | 'error';
  message: string;
  liveMs?: number | null;
  onClose: () => void;
}

/** docs/product.md#admin-area: a success ("Success!") or error ("Error!") message the admin can close. */
export function MessageBanner({ type, message, liveMs, onClose }: MessageBannerProps) {
  const title = type === 'success' ? 'Success!' : 'Error!';
  return (
    <div className={`message-banner message-${type}`} role={type === 'error' ? 'alert' : 'status'} data-testid="message-banner">
      <div className="message-body">
        <strong className="message-title">{title}</strong> <span className="message-text">{message}</span>
        {typeof liveMs === 'number' && <span className="live-time">{formatLiveTime(liveMs)}</span>}
      </div>
      <button type="button" className="message-close" aria-label="Close message" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
