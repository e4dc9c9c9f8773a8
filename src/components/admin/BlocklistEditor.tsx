import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { getCommentBlocklist, messageOf, saveCommentBlocklist } from '../../client/api.ts';
import { BLOCKLIST_LIMITS, parseBlocklistText } from '../../shared/validation/moderation.ts';
import { showError, showSuccess } from '../../stores/admin.ts';

/** The admin's blocked words, one word or phrase a line; a new comment containing one is held. */
export default function BlocklistEditor() {
  const id = useId();
  const [text, setText] = useState('');
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    getCommentBlocklist(controller.signal)
      .then((answer) => {
        setText(answer.words.join('\n'));
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setStatus('failed');
        showError('Failed to fetch the blocked words.');
      });
    return () => controller.abort();
  }, []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    try {
      const answer = await saveCommentBlocklist(parseBlocklistText(text));
      setText(answer.words.join('\n'));
      showSuccess(answer.message ?? 'Blocked words saved');
    } catch (error) {
      console.error(error);
      showError(messageOf(error, 'Failed to save the blocked words.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="admin-card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Blocked words</h2>
      <form className="admin-form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${id}-words`}>Blocked words and phrases</label>
          <textarea
            id={`${id}-words`}
            className="blocklist-text"
            rows={6}
            value={text}
            disabled={status !== 'ready'}
            aria-describedby={`${id}-help`}
            onChange={(event) => setText(event.target.value)}
          />
          <p id={`${id}-help`} className="field-help">
            One word or phrase a line (at most {BLOCKLIST_LIMITS.words}). A new comment that contains one, in any letter case,
            waits under Pending.
          </p>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={status !== 'ready' || saving}>
            {saving ? 'Saving...' : 'Save blocked words'}
          </button>
        </div>
      </form>
    </section>
  );
}
