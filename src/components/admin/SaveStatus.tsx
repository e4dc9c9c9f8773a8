/**
 * The status lines at the foot of the admin's article, About/Contact and settings forms: how the
 * save is going, then how the refresh of the pages it changed is going. Each is a live region of
 * its own, so a screen reader hears each change without losing the other line.
 */
export function SaveStatus({ progress, refreshText }: { progress: string | null; refreshText: string | null }) {
  return (
    <>
      <p className="progress" role="status" aria-live="polite">
        {progress}
      </p>
      <p className="refresh-status" role="status" aria-live="polite">
        {refreshText}
      </p>
    </>
  );
}
