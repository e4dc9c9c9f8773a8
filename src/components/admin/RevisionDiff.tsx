import type { DiffPart } from '../../shared/word-diff.ts';

/** One text's word diff, readable without colour: removed words struck through, added ones underlined, both named for screen readers. */
export function RevisionDiff({ label, parts }: { label: string; parts: DiffPart[] }) {
  return (
    <div className="field">
      <h3>{label}</h3>
      {parts.length === 0 || parts.every((part) => part.kind === 'same') ? (
        <p>No changes.</p>
      ) : (
        <div className="diff-text">
          {parts.map((part, n) =>
            part.kind === 'same' ? (
              <span key={n}>{part.text}</span>
            ) : part.kind === 'removed' ? (
              <del key={n}>
                <span className="visually-hidden">[removed: </span>
                {part.text}
                <span className="visually-hidden">]</span>
              </del>
            ) : (
              <ins key={n}>
                <span className="visually-hidden">[added: </span>
                {part.text}
                <span className="visually-hidden">]</span>
              </ins>
            ),
          )}
        </div>
      )}
    </div>
  );
}
