import { useCallback, useEffect, useId, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { srcsetFor } from '../../shared/images.ts';

export interface CarouselSlide {
  id: number;
  title: string;
  image_url: string;
  altText: string;
}

interface Props {
  slides: CarouselSlide[];
}

/** docs/product.md#home: every 5 s, wrapping around. */
export const CAROUSEL_INTERVAL_MS = 5000;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void) {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/**
 * The home banner: advances every 5 s and wraps. It stops while the pointer is over it or focus
 * is inside it, when the reader pressed Pause, and entirely for readers who prefer reduced motion
 * (WCAG 2.2.2). Arrow keys move between slides while focus is inside.
 */
export default function Carousel({ slides }: Props) {
  const count = slides.length;
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const baseId = useId();
  const rotating = count > 1 && !hovered && !focused && !stopped && !reducedMotion;

  const show = useCallback((next: number) => setIndex(((next % count) + count) % count), [count]);

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [rotating, count, index]);

  if (count === 0) {
    // docs/product.md#public-screens: a short, calm box rather than an empty banner-sized block.
    return (
      <section className="carousel-empty" aria-label="Highlights">
        <p>No items to display</p>
      </section>
    );
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'ArrowLeft') {
      event.preventDefault();
      show(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      show(index + 1);
    }
  }

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label="Highlights"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
      onKeyDown={onKeyDown}
    >
      <div id={`${baseId}-slides`} aria-live={rotating ? 'off' : 'polite'}>
        {slides.map((slide, i) => (
          <div
            key={slide.id}
            className="carousel-slide"
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            hidden={i !== index}
          >
            <figure>
              <img
                src={slide.image_url}
                srcSet={srcsetFor(slide.image_url)}
                sizes={srcsetFor(slide.image_url) ? '(min-width: 72rem) 72rem, 100vw' : undefined}
                alt={slide.altText || slide.title}
                width={960}
                height={540}
                loading={i === 0 ? 'eager' : 'lazy'}
                fetchPriority={i === 0 ? 'high' : 'auto'}
                decoding="async"
              />
              <figcaption className="carousel-caption" dir="auto">
                {slide.title}
              </figcaption>
            </figure>
          </div>
        ))}
      </div>
      {count > 1 && (
        <>
          <button
            type="button"
            className="carousel-control carousel-prev"
            aria-controls={`${baseId}-slides`}
            aria-label="Previous slide"
            onClick={() => show(index - 1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button
            type="button"
            className="carousel-control carousel-next"
            aria-controls={`${baseId}-slides`}
            aria-label="Next slide"
            onClick={() => show(index + 1)}
          >
            <span aria-hidden="true">›</span>
          </button>
          <button type="button" className="carousel-stop" aria-pressed={stopped} onClick={() => setStopped((s) => !s)}>
            {stopped ? 'Play' : 'Pause'}
          </button>
          <ul className="carousel-dots">
            {slides.map((slide, i) => (
              <li key={slide.id}>
                <button
                  type="button"
                  className="carousel-dot"
                  aria-controls={`${baseId}-slides`}
                  aria-label={`Slide ${i + 1}: ${slide.title}`}
                  aria-current={i === index ? 'true' : undefined}
                  onClick={() => show(i)}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
