import { useId, useState, type SubmitEvent } from 'react';
import { searchHref } from '../site/site.ts';

interface Props {
  /** Distinguishes the header's and the mobile menu's boxes for assistive technology. */
  label?: string;
  className?: string;
  /** The search being shown (on the results page), so the box keeps it. */
  initialText?: string;
}

/**
 * The nav search. It is a real GET form to /blogs, so it works before hydration and without
 * JavaScript; once hydrated it ignores blank or whitespace-only text.
 */
export default function SearchBox({ label = 'Search articles', className = 'search-form', initialText = '' }: Props) {
  const id = useId();
  const [text, setText] = useState(initialText);

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const href = searchHref(text);
    if (href) window.location.assign(href);
  }

  return (
    <form className={className} action="/blogs" method="get" role="search" onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="search"
        placeholder="Search..."
        autoComplete="off"
        maxLength={200}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit">Search</button>
    </form>
  );
}
