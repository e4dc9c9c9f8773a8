import type { BlogStatus } from '../../shared/api-types.ts';
import { FieldError, describedBy } from '../forms/FieldError.tsx';
import { TextField } from '../forms/TextField.tsx';

const STATUS_OPTIONS: Array<{ value: BlogStatus; label: string }> = [
  { value: 'published', label: 'Published (live on the site)' },
  { value: 'draft', label: 'Draft (only admins see it)' },
  { value: 'scheduled', label: 'Scheduled (goes live at a set time)' },
];

interface Props {
  status: BlogStatus;
  publishAt: string;
  errors: Record<string, string | undefined>;
  onStatus: (status: BlogStatus) => void;
  onPublishAt: (value: string) => void;
}

/** The form's publishing state: published, draft, or scheduled with a date and time (the admin's own time zone). */
export function PublishingFields({ status, publishAt, errors, onStatus, onPublishAt }: Props) {
  return (
    <>
      <div className="field">
        <label htmlFor="blog-status">Status</label>
        <select
          id="blog-status"
          value={status}
          aria-invalid={errors.status ? true : undefined}
          aria-describedby={describedBy('blog-status', errors.status)}
          onChange={(event) => onStatus(event.target.value as BlogStatus)}
        >
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <FieldError id="blog-status" message={errors.status} />
      </div>
      {status === 'scheduled' && (
        <TextField
          id="blog-publish-at"
          label="Publish at"
          type="datetime-local"
          step={1}
          required
          value={publishAt}
          error={errors.publish_at}
          help={`Your time zone: ${Intl.DateTimeFormat().resolvedOptions().timeZone}.`}
          onChange={(event) => onPublishAt(event.target.value)}
        />
      )}
    </>
  );
}
