import { useEffect, useState, type SubmitEvent } from 'react';
import { getSettings, messageOf, saveSettings, uploadImage } from '../../client/api.ts';
import { IMAGE_MAX_BYTES, UPLOAD_MESSAGES } from '../../shared/validation/uploads.ts';
import {
  DEFAULT_SETTINGS,
  IMAGE_FIELDS,
  IMAGE_LABELS,
  SETTING_KEYS,
  validateSettingsInput,
  type ImageField,
  type SettingKey,
  type SiteSettingsValues,
} from '../../shared/validation/settings.ts';
import type { DemoCountsDto } from '../../shared/api-types.ts';
import { clearMessage, showError, showSuccess } from '../../stores/admin.ts';
import { serverFieldErrors, useFieldErrors } from './use-field-errors.ts';
import { useRefreshDrain } from './use-refresh-drain.ts';

export const SETTINGS_FORM_MESSAGES = {
  loadFailed: 'Failed to load the settings.',
  saveFailed: 'Failed to save the settings.',
  saving: 'Saving settings...',
  uploading: (label: string) => `Uploading ${label.toLowerCase()}...`,
  notAnImage: (label: string) => `${label} must be an image file.`,
} as const;

/** The input id of each field, in form order (the first bad one gets the focus). */
export const settingInputId = (key: SettingKey) => `settings-${key.replace(/_/g, '-')}`;
const FIELD_INPUTS: Array<[string, string]> = SETTING_KEYS.map((key) => [key, settingInputId(key)]);

export type SettingsPhase = 'loading' | 'ready' | 'failed';

/**
 * The settings screen's state: loads the settings, uploads a picked image at once (checked and
 * resized by the server like any image), validates with the schema the server applies, saves,
 * then follows the background refresh of every page.
 */
export function useSettingsForm() {
  const [phase, setPhase] = useState<SettingsPhase>('loading');
  const [fields, setFields] = useState<SiteSettingsValues>(DEFAULT_SETTINGS);
  const [demo, setDemo] = useState<DemoCountsDto | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const { refreshText, watchRefresh } = useRefreshDrain();
  const { errors, setErrors, showErrors, clearError } = useFieldErrors(FIELD_INPUTS);

  useEffect(() => {
    const controller = new AbortController();
    getSettings(controller.signal)
      .then((answer) => {
        setFields(answer.settings);
        setDemo(answer.demo);
        setPhase('ready');
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setPhase('failed');
        showError(SETTINGS_FORM_MESSAGES.loadFailed);
      });
    return () => controller.abort();
  }, []);

  const update = (key: SettingKey, value: string) => {
    setFields((previous) => ({ ...previous, [key]: value }));
    clearError(key);
  };

  const pickImage = async (key: ImageField, file: File | null) => {
    clearError(key);
    if (!file) return;
    const label = IMAGE_LABELS[key];
    if (!file.type.toLowerCase().startsWith('image/'))
      return setErrors((e) => ({ ...e, [key]: SETTINGS_FORM_MESSAGES.notAnImage(label) }));
    if (file.size > IMAGE_MAX_BYTES) return setErrors((e) => ({ ...e, [key]: UPLOAD_MESSAGES.imageTooLarge }));
    setBusy(true);
    setProgress(SETTINGS_FORM_MESSAGES.uploading(label));
    try {
      update(key, (await uploadImage(file)).url);
    } catch (error) {
      console.error(error);
      setErrors((e) => ({ ...e, [key]: messageOf(error, UPLOAD_MESSAGES.imageUnreadable) }));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    if (showErrors(validateSettingsInput(fields).errors)) return;
    clearMessage();
    setBusy(true);
    setProgress(SETTINGS_FORM_MESSAGES.saving);
    try {
      const saved = await saveSettings(fields);
      setFields(saved.settings);
      setDemo(saved.demo);
      showSuccess(saved.message, saved.live_ms ?? null);
      watchRefresh(saved.refresh);
    } catch (error) {
      console.error(error);
      showError(messageOf(error, SETTINGS_FORM_MESSAGES.saveFailed));
      const serverErrors = serverFieldErrors(error);
      if (serverErrors) showErrors(serverErrors);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return {
    phase,
    fields,
    update,
    pickImage,
    errors,
    busy,
    progress,
    refreshText,
    demo,
    setDemo,
    onSubmit,
    imageFields: IMAGE_FIELDS,
  };
}
