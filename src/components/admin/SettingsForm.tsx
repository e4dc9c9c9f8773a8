import type { ChangeEvent } from 'react';
import { TextField } from '../forms/TextField.tsx';
import { TextAreaField } from '../forms/TextAreaField.tsx';
import { SOCIAL_LABELS, SETTINGS_LIMITS, type SettingKey, type SocialField } from '../../shared/validation/settings.ts';
import { settingInputId, useSettingsForm } from './use-settings-form.ts';
import { SettingsImageField } from './SettingsImageField.tsx';
import { BrandColorField } from './BrandColorField.tsx';
import { DemoContentPanel } from './DemoContentPanel.tsx';
import { SaveStatus } from './SaveStatus.tsx';

const FLOATING: SocialField[] = ['social_whatsapp', 'social_instagram', 'social_youtube'];
const FOLLOW: SocialField[] = ['follow_facebook', 'follow_twitter', 'follow_instagram', 'follow_youtube'];

// Suggestions only: any well-formed language code is accepted.
const LANGUAGE_CHOICES = [
  ['en', 'English'],
  ['ar', 'Arabic'],
  ['de', 'German'],
  ['es', 'Spanish'],
  ['fa', 'Persian'],
  ['fr', 'French'],
  ['he', 'Hebrew'],
  ['hi', 'Hindi'],
  ['pt-BR', 'Portuguese (Brazil)'],
  ['ur', 'Urdu'],
] as const;

const IMAGE_HELP = {
  logo: 'Shown beside the site title in the header. PNG, JPEG, GIF or WebP, up to 5 MB.',
  favicon:
    'A square picture works best: it becomes the browser tab icon and the phone home-screen icons (32, 180, 192 and 512 px).',
  share_image: 'Shown when a page without a picture of its own is shared on social networks.',
} as const;

/** /admin/settings: the site's name, branding, social links and sharing defaults, then the demo content. */
export default function SettingsForm() {
  const { phase, fields, update, pickImage, errors, busy, progress, refreshText, demo, setDemo, onSubmit } = useSettingsForm();

  if (phase === 'loading') {
    return (
      <p className="loading" role="status">
        Loading settings...
      </p>
    );
  }
  if (phase === 'failed') return <p>The settings could not be loaded. Reload the page to try again.</p>;

  const bind = (key: SettingKey) => ({
    id: settingInputId(key),
    value: fields[key],
    error: errors[key],
    disabled: busy,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(key, event.target.value),
  });
  const socialField = (key: SocialField) => (
    <TextField key={key} label={`${SOCIAL_LABELS[key]} link`} type="url" inputMode="url" placeholder="https://" {...bind(key)} />
  );

  return (
    <>
      <form className="admin-form settings-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <fieldset>
          <legend>Site</legend>
          <TextField label="Site title" type="text" required maxLength={SETTINGS_LIMITS.site_title} {...bind('site_title')} />
          <TextField
            label="Short name"
            type="text"
            maxLength={SETTINGS_LIMITS.short_name}
            help={`The name under the site's icon on a phone's home screen, at most ${SETTINGS_LIMITS.short_name} characters. Empty: the first words of the title that fit.`}
            {...bind('short_name')}
          />
          <TextField
            label="Tagline"
            type="text"
            maxLength={SETTINGS_LIMITS.tagline}
            help="A short line shown beside the title on wide screens."
            {...bind('tagline')}
          />
          <TextField
            label="Site language"
            type="text"
            autoComplete="off"
            spellCheck={false}
            maxLength={35}
            list="settings-language-choices"
            help="A language code such as en, fr, ar, he, fa or pt-BR. Pages declare it for browsers and screen readers; Arabic, Hebrew, Persian and Urdu sites are laid out right to left."
            {...bind('site_language')}
          />
          <datalist id="settings-language-choices">
            {LANGUAGE_CHOICES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </datalist>
          <TextAreaField
            label='Footer "Our Blog" text'
            rows={4}
            required
            maxLength={SETTINGS_LIMITS.footer_text}
            {...bind('footer_text')}
          />
        </fieldset>

        <fieldset>
          <legend>Branding</legend>
          {(['logo', 'favicon'] as const).map((key) => (
            <SettingsImageField
              key={key}
              field={key}
              value={fields[key]}
              error={errors[key]}
              help={IMAGE_HELP[key]}
              disabled={busy}
              onPick={(file) => void pickImage(key, file)}
              onRemove={() => update(key, '')}
            />
          ))}
          <BrandColorField
            value={fields.brand_color}
            error={errors.brand_color}
            disabled={busy}
            onChange={(value) => update('brand_color', value)}
          />
        </fieldset>

        <fieldset>
          <legend>Search and sharing</legend>
          <TextAreaField
            label="Meta description"
            rows={3}
            required
            maxLength={SETTINGS_LIMITS.meta_description}
            help="What search engines and share cards show for pages without a description of their own (20 to 300 characters)."
            {...bind('meta_description')}
          />
          <SettingsImageField
            field="share_image"
            value={fields.share_image}
            error={errors.share_image}
            help={IMAGE_HELP.share_image}
            disabled={busy}
            onPick={(file) => void pickImage('share_image', file)}
            onRemove={() => update('share_image', '')}
          />
        </fieldset>

        <fieldset>
          <legend>Social links</legend>
          <p className="field-help">Leave a link empty to hide its button.</p>
          <fieldset className="settings-group">
            <legend>Floating buttons</legend>
            {FLOATING.map(socialField)}
          </fieldset>
          <fieldset className="settings-group">
            <legend>Footer &ldquo;Follow Us&rdquo;</legend>
            {FOLLOW.map(socialField)}
          </fieldset>
        </fieldset>

        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Save settings
          </button>
          <SaveStatus progress={progress} refreshText={refreshText} />
        </div>
      </form>
      <DemoContentPanel counts={demo} onRemoved={() => setDemo({ blogs: 0, comments: 0, slides: 0, categories: 0 })} />
    </>
  );
}
