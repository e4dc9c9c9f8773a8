import { useEffect, useId, useRef, useState } from 'react';
import type { NamedColor } from '../colors.ts';
import { EditorPanel } from './EditorPanel.tsx';

interface ColorPanelProps {
  title: string;
  colors: NamedColor[];
  current: string | null;
  onPick: (color: string) => void;
  onClose: () => void;
}

/** A text or background colour: the named swatches, a custom colour, or none. */
export function ColorPanel({ title, colors, current, onPick, onClose }: ColorPanelProps) {
  const firstRef = useRef<HTMLButtonElement>(null);
  const [custom, setCustom] = useState(current && /^#[0-9a-f]{6}$/i.test(current) ? current : '#000000');
  const id = useId();
  useEffect(() => firstRef.current?.focus(), []);
  return (
    <EditorPanel
      label={title}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={() => onPick('')}>
          Remove colour
        </button>
      }
    >
      <div className="swatches">
        {colors.map((color, i) => (
          <button
            key={color.value}
            ref={i === 0 ? firstRef : undefined}
            type="button"
            className="swatch"
            style={{ background: color.value }}
            aria-label={color.name}
            title={color.name}
            aria-pressed={current?.toLowerCase() === color.value}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(color.value)}
          />
        ))}
      </div>
      <div className="custom-color">
        <label htmlFor={`${id}-custom`}>Custom colour</label>
        <input id={`${id}-custom`} type="color" value={custom} onChange={(event) => setCustom(event.target.value)} />
        <button type="button" className="btn" onClick={() => onPick(custom)}>
          Apply colour
        </button>
      </div>
    </EditorPanel>
  );
}
