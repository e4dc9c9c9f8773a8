export type BannerType = 'success' | 'error';

interface Props {
  type: BannerType;
  message: string;
  /** Without it the banner has no close button (for example while a redirect is pending). */
  onClose?: () => void;
}

const TITLES: Record<BannerType, string> = { success: 'Success!', error: 'Error!' };

/** docs/product.md#admin-area: a success or error banner with its title, which the reader can close. */
export default function MessageBanner({ type, message, onClose }: Props) {
  return (
    <div className={`message-banner message-banner-${type}`} role={type === 'error' ? 'alert' : 'status'}>
      <div>
        <strong className="message-banner-title">{TITLES[type]}</strong> <span className="message-banner-text">{message}</span>
      </div>
      {onClose && (
        <button type="button" className="message-banner-close" onClick={onClose} aria-label="Close message">
          ×
        </button>
      )}
    </div>
  );
}
