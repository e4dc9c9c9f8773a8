/** Adds a "Copy code" button before each highlighted block; the result is announced politely. */
export function addCopyButtons(root: ParentNode): void {
  for (const pre of root.querySelectorAll<HTMLPreElement>('.article-content pre.shiki')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'code-copy';
    button.textContent = 'Copy code';
    const status = document.createElement('span');
    status.className = 'visually-hidden';
    status.setAttribute('aria-live', 'polite');
    button.addEventListener('click', () => {
      const text = pre.textContent ?? '';
      navigator.clipboard.writeText(text).then(
        () => {
          button.textContent = 'Copied';
          status.textContent = 'Code copied to the clipboard.';
        },
        () => {
          button.textContent = 'Copy failed';
          status.textContent = 'The code could not be copied: select it and copy by hand.';
        },
      );
      window.setTimeout(() => (button.textContent = 'Copy code'), 2000);
    });
    const bar = document.createElement('div');
    bar.className = 'code-copy-bar';
    bar.append(button, status);
    pre.before(bar);
  }
}
