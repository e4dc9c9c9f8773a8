import { useState } from 'react';
import { articleHref } from '../../shared/site-map/paths.ts';

export interface TickerItem {
  id: number;
  title: string;
}

interface Props {
  items: TickerItem[];
}

/**
 * The breaking-news ticker: the recent articles shown twice in sequence, so the CSS scroll
 * (translateX -50%) loops without a gap. The second copy is hidden from assistive technology and
 * from the tab order. Scrolling stops on hover and focus; the button stops it for good (WCAG 2.2.2).
 */
export default function BreakingTicker({ items }: Props) {
  const [paused, setPaused] = useState(false);
  if (items.length === 0) return null;
  const sequence = [...items.map((item) => ({ item, copy: 0 })), ...items.map((item) => ({ item, copy: 1 }))];
  return (
    <section className={paused ? 'ticker is-paused' : 'ticker'} aria-label="Breaking news">
      <p className="ticker-label" aria-hidden="true">
        Breaking
      </p>
      <div className="ticker-viewport">
        <ul className="ticker-track">
          {sequence.map(({ item, copy }) => (
            <li key={`${copy}-${item.id}`} aria-hidden={copy === 1 ? 'true' : undefined}>
              <a href={articleHref(item.id)} tabIndex={copy === 1 ? -1 : undefined} dir="auto">
                {item.title}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <button type="button" className="ticker-pause" aria-pressed={paused} onClick={() => setPaused((p) => !p)}>
        {paused ? 'Play' : 'Pause'}
        <span className="visually-hidden"> breaking news</span>
      </button>
    </section>
  );
}
