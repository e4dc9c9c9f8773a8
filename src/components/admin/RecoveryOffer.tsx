import type { LocalCopy } from './use-autosave.ts';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** The offer to bring back a copy kept in this browser (after a crash or a closed tab). */
export function RecoveryOffer({ copy, onRecover, onDiscard }: { copy: LocalCopy; onRecover: () => void; onDiscard: () => void }) {
  return (
    <div className="recovery-banner" role="region" aria-labelledby="recovery-heading">
      <h2 id="recovery-heading">Unsaved changes found</h2>
      <p>This browser kept changes to this form from {when.format(new Date(copy.savedAt))} that were never saved.</p>
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={onRecover}>
          Recover unsaved changes
        </button>
        <button type="button" className="btn" onClick={onDiscard}>
          Discard them
        </button>
      </div>
    </div>
  );
}
