import { InputRule } from '@milkdown/kit/prose/inputrules';
import { TextSelection } from '@milkdown/kit/prose/state';
import { $inputRule } from '@milkdown/kit/utils';
import { mathBlockSchema, mathInlineSchema } from './study-nodes.ts';

/**
 * Formulas typed as in markdown: `$x^2$` becomes an inline formula as the closing `$` is typed,
 * and a paragraph typed as `$$…$$` becomes a display formula with the cursor in a paragraph
 * below it. A formula's source neither starts nor ends with a space, so prices ("$5 and $10")
 * stay text; `\$` is a dollar sign, not a delimiter.
 */
export const INLINE_MATH = /(^|[^$\\])\$([^\s$](?:[^$]*[^\s$\\])?)\$$/;
export const DISPLAY_MATH = /^\$\$([^$]*[^\s$][^$]*)\$\$$/;

export const inlineMathInputRule = $inputRule(
  (ctx) =>
    new InputRule(INLINE_MATH, (state, match, start, end) => {
      const [, before = '', value = ''] = match;
      const from = start + before.length;
      const code = state.schema.marks.inlineCode;
      if (code && state.doc.rangeHasMark(from, end, code)) return null;
      return state.tr.replaceWith(from, end, mathInlineSchema.type(ctx).create({ value }));
    }),
);

export const displayMathInputRule = $inputRule(
  (ctx) =>
    new InputRule(DISPLAY_MATH, (state, match, start, end) => {
      const $start = state.doc.resolve(start);
      const paragraph = state.schema.nodes.paragraph;
      // Only a paragraph that is the formula and nothing else (as `$$` on its own line in markdown).
      if (!paragraph || $start.parent.type !== paragraph || start !== $start.start() || end !== $start.end()) return null;
      const formula = mathBlockSchema.type(ctx).create({ value: (match[1] ?? '').trim() });
      const tr = state.tr.replaceWith($start.before(), $start.after(), [formula, paragraph.create()]);
      return tr.setSelection(TextSelection.create(tr.doc, $start.before() + formula.nodeSize + 1)).scrollIntoView();
    }),
);

export const mathInputRules = [displayMathInputRule, inlineMathInputRule];
