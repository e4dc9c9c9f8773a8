import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { CAROUSEL_MESSAGES, validateCarouselInput } from '../../shared/validation/carousel.ts';
import { hasErrors, type FieldErrors } from '../../shared/validation/common.ts';
import { IMAGE_ACCEPT } from '../../shared/validation/uploads.ts';
import { showError, showSuccess } from '../../stores/admin.ts';
import { addSlide, ApiError, deleteSlide, listSlides } from '../../client/api.ts';
import type { SlideDto } from '../../shared/api-types.ts';
import { FieldError, describedBy } from './FieldError.tsx';

/** SPEC.md section 8: other carousel errors show the error's own message. */
function ownMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** /admin/carousel: the slides, add (title and image), delete after a confirm. */
export default function CarouselManager() {
  const [slides, setSlides] = useState<SlideDto[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    listSlides(controller.signal)
      .then((list) => {
        setSlides(list);
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setStatus('failed');
        showError(CAROUSEL_MESSAGES.fetchFailed);
      });
    return () => controller.abort();
  }, []);

  const onAdd = async (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateCarouselInput({ title, image: file }).errors;
    setErrors(found);
    if (hasErrors(found)) {
      document.getElementById(found.title ? 'slide-title' : 'slide-image')?.focus();
      return;
    }
    setAdding(true);
    try {
      const answer = await addSlide(title.trim(), file!);
      setSlides((list) => [...list, answer.slide]);
      setTitle('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      showSuccess(answer.message || CAROUSEL_MESSAGES.added, answer.live_ms ?? null);
    } catch (error) {
      console.error(error);
      if (error instanceof ApiError && hasErrors(error.fields)) setErrors(error.fields);
      showError(ownMessage(error));
    } finally {
      setAdding(false);
    }
  };

  const onDelete = async (slide: SlideDto) => {
    if (!window.confirm(CAROUSEL_MESSAGES.confirmDelete)) return;
    setDeleting(slide.id);
    try {
      const answer = await deleteSlide(slide.id);
      setSlides((list) => list.filter((s) => s.id !== slide.id));
      showSuccess(answer.message || CAROUSEL_MESSAGES.deleted, answer.live_ms ?? null);
    } catch (error) {
      console.error(error);
      showError(ownMessage(error));
    } finally {
      setDeleting(null);
    }
  };

  return (
    <>
      <section className="admin-card" aria-labelledby="add-slide-heading">
        <h2 id="add-slide-heading">Add slide</h2>
        <form className="admin-form" noValidate onSubmit={onAdd} aria-busy={adding}>
          <div className="field">
            <label htmlFor="slide-title">Title</label>
            <input
              id="slide-title"
              type="text"
              value={title}
              required
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={describedBy('slide-title', errors.title)}
              onChange={(event) => {
                setTitle(event.target.value);
                setErrors(({ title: _dropped, ...rest }) => rest);
              }}
            />
            <FieldError id="slide-title" message={errors.title} />
          </div>
          <div className="field">
            <label htmlFor="slide-image">Image</label>
            <input
              id="slide-image"
              ref={fileInput}
              type="file"
              accept={IMAGE_ACCEPT}
              required
              aria-invalid={errors.image ? true : undefined}
              aria-describedby={`slide-image-help${errors.image ? ' slide-image-error' : ''}`}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setErrors(({ image: _dropped, ...rest }) => rest);
              }}
            />
            <p id="slide-image-help" className="field-help">
              JPG, PNG, GIF or WEBP, at most 5MB.
            </p>
            <FieldError id="slide-image" message={errors.image} />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={adding}>
              {adding ? 'Uploading...' : 'Add Slide'}
            </button>
          </div>
        </form>
      </section>

      <section className="admin-card" aria-labelledby="slides-heading">
        <h2 id="slides-heading">Slides</h2>
        {status === 'loading' && (
          <p className="loading" role="status">
            Loading slides...
          </p>
        )}
        {status === 'ready' && slides.length === 0 && <p>No slides yet.</p>}
        {slides.length > 0 && (
          <ul className="slide-list">
            {slides.map((slide) => (
              <li key={slide.id} className="slide-item">
                <img src={slide.image_url} alt={slide.altText || slide.title} loading="lazy" width={240} height={135} />
                <span className="slide-title">{slide.title}</span>
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  aria-label={`Delete slide ${slide.title}`}
                  disabled={deleting === slide.id}
                  onClick={() => void onDelete(slide)}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
