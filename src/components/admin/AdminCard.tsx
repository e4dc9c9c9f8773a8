import type { ReactNode, SubmitEvent } from 'react';
import type { LoadStatus } from './use-admin-list.ts';

interface AdminCardProps {
  /** The heading's id, which labels the card. */
  headingId: string;
  title: string;
  children: ReactNode;
}

/** One card of an admin screen: a section labelled by its heading. */
export function AdminCard({ headingId, title, children }: AdminCardProps) {
  return (
    <section className="admin-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

interface ListBodyProps {
  status: LoadStatus;
  count: number;
  loadingText: string;
  emptyText: string;
  /** The list itself, shown once there is something in it. */
  children: ReactNode;
}

/** A loaded list's states: loading, loaded but empty, or the list. */
export function ListBody({ status, count, loadingText, emptyText, children }: ListBodyProps) {
  return (
    <>
      {status === 'loading' && (
        <p className="loading" role="status">
          {loadingText}
        </p>
      )}
      {status === 'ready' && count === 0 && <p>{emptyText}</p>}
      {count > 0 && children}
    </>
  );
}

interface FormCardProps extends AdminCardProps {
  formClassName: string;
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
  /** Set while the form is being sent: the submit button is disabled meanwhile. */
  sending: boolean;
  /** Whether the form itself reports aria-busy while sending. */
  busyForm?: boolean;
  submitLabel: ReactNode;
}

/** A card holding one form (validated by the page, not the browser) that ends with its submit button. */
export function FormCard({ headingId, title, children, formClassName, onSubmit, sending, busyForm, submitLabel }: FormCardProps) {
  return (
    <AdminCard headingId={headingId} title={title}>
      <form className={formClassName} noValidate onSubmit={onSubmit} aria-busy={busyForm ? sending : undefined}>
        {children}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {submitLabel}
          </button>
        </div>
      </form>
    </AdminCard>
  );
}
