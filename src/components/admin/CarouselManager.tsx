import { useRef, useState, type SubmitEvent } from 'react';
import { CAROUSEL_MESSAGES, validateCarouselInput } from '../../shared/validation/carousel.ts';
import { IMAGE_ACCEPT } from '../../shared/validation/uploads.ts';
import { showError, showSuccess } from '../../stores/admin.ts';
import { addSlide, ApiError, deleteSlide, listSlides } from '../../client/api.ts';
import type { SlideDto } from '../../shared/api-types.ts';
import { TextField } from '../forms/TextField.tsx';
import { AdminCard, FormCard, ListBody } from './AdminCard.tsx';
import { DeleteButton } from './DeleteButton.tsx';
import { useAdminList } from './use-admin-list.ts';
import { useConfirmDelete } from './use-confirm-delete.ts';
import { serverFieldErrors, useFieldErrors } from './use-field-errors.ts';

/** docs/product.md#messages: other carousel errors show the error's own message. */
function ownMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** /admin/carousel: the slides, add (title and image), delete after a confirm. */
export default function CarouselManager() {
  const { items: slides, setItems: setSlides, status } = useAdminList(listSlides, CAROUSEL_MESSAGES.fetchFailed);
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const { errors, setErrors, showErrors, clearError } = useFieldErrors([
    ['title', 'slide-title'],
    ['image', 'slide-image'],
  ]);
  const [adding, setAdding] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const { deleting, onDelete } = useConfirmDelete<SlideDto>({
    confirmText: CAROUSEL_MESSAGES.confirmDelete,
    remove: (slide) => deleteSlide(slide.id),
    onDeleted: (slide) => setSlides((list) => list.filter((s) => s.id !== slide.id)),
    deletedText: CAROUSEL_MESSAGES.deleted,
    failureText: ownMessage,
  });

  const onAdd = async (event: SubmitEvent) => {
    event.preventDefault();
    if (showErrors(validateCarouselInput({ title, image: file }).errors)) return;
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
      const fields = serverFieldErrors(error);
      if (fields) setErrors(fields);
      showError(ownMessage(error));
    } finally {
      setAdding(false);
    }
  };

  return (
    <>
      <FormCard
        headingId="add-slide-heading"
        title="Add slide"
        formClassName="admin-form"
        onSubmit={onAdd}
        sending={adding}
        busyForm
        submitLabel={adding ? 'Uploading...' : 'Add Slide'}
      >
        <TextField
          id="slide-title"
          label="Title"
          type="text"
          value={title}
          required
          error={errors.title}
          onChange={(event) => {
            setTitle(event.target.value);
            clearError('title');
          }}
        />
        <TextField
          id="slide-image"
          label="Image"
          inputRef={fileInput}
          type="file"
          accept={IMAGE_ACCEPT}
          required
          error={errors.image}
          help="JPG, PNG, GIF or WEBP, at most 5MB."
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            clearError('image');
          }}
        />
      </FormCard>

      <AdminCard headingId="slides-heading" title="Slides">
        <ListBody status={status} count={slides.length} loadingText="Loading slides..." emptyText="No slides yet.">
          <ul className="slide-list">
            {slides.map((slide) => (
              <li key={slide.id} className="slide-item">
                <img src={slide.image_url} alt={slide.altText || slide.title} loading="lazy" width={240} height={135} />
                <span className="slide-title">{slide.title}</span>
                <DeleteButton
                  label={`Delete slide ${slide.title}`}
                  busy={deleting === slide.id}
                  onPress={() => void onDelete(slide)}
                />
              </li>
            ))}
          </ul>
        </ListBody>
      </AdminCard>
    </>
  );
}
