import type { ToolbarState } from '../toolbar-state.ts';
import { ToolbarButton } from './ToolbarButton.tsx';
import { HeadingIcon } from './icons.tsx';

interface FormatActions {
  heading: (level: number) => void;
  bold: () => void;
  italic: () => void;
  underline: () => void;
}

/** Headings 1 to 3 (pressing the current level makes a paragraph again); toolbar places 0-2. */
export function HeadingButtons({ state, actions }: { state: ToolbarState; actions: FormatActions }) {
  return (
    <div className="tb-group">
      {[1, 2, 3].map((level) => (
        <ToolbarButton
          key={level}
          index={level - 1}
          label={`Heading ${level}`}
          pressed={state.heading === level}
          onPress={() => actions.heading(state.heading === level ? 0 : level)}
        >
          <HeadingIcon level={level} />
        </ToolbarButton>
      ))}
    </div>
  );
}

/** Bold, italic and underline toggles; toolbar places 3-5. */
export function FormatButtons({ state, actions }: { state: ToolbarState; actions: FormatActions }) {
  return (
    <div className="tb-group">
      <ToolbarButton index={3} label="Bold" pressed={state.bold} onPress={actions.bold}>
        <strong>B</strong>
      </ToolbarButton>
      <ToolbarButton index={4} label="Italic" pressed={state.italic} onPress={actions.italic}>
        <em>I</em>
      </ToolbarButton>
      <ToolbarButton index={5} label="Underline" pressed={state.underline} onPress={actions.underline}>
        <u>U</u>
      </ToolbarButton>
    </div>
  );
}
