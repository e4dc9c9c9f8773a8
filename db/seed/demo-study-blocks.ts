/**
 * Study blocks in the demo articles where a subject needs them (docs/study-content.md): each is
 * written the way the editor stores it, so the demo shows what a teacher can write.
 */
const math = (tex: string) => `<span data-type="math_inline">${tex}</span>`;
const display = (tex: string) => `<div data-type="math_block">${tex}</div>`;
const callout = (kind: string, body: string) => `<div data-callout="${kind}">${body}</div>`;
const footnote = (label: string) => `<sup data-type="footnote_reference" data-label="${label}">${label}</sup>`;
const note = (label: string, body: string) =>
  `<dl data-type="footnote_definition" data-label="${label}"><dt>${label}</dt><dd><p>${body}</p></dd></dl>`;
const cell = (tag: 'th' | 'td', text: string, align = 'left') => `<${tag} style="text-align: ${align}"><p>${text}</p></${tag}>`;
const row = (tag: 'th' | 'td', cells: string[], aligns: string[]) =>
  `<tr${tag === 'th' ? ' data-is-header="true"' : ''}>${cells.map((c, i) => cell(tag, c, aligns[i])).join('')}</tr>`;

const quadratic = [
  '<h2>The quadratic formula</h2>',
  `<p>Every equation of the form ${math('ax^2 + bx + c = 0')} with ${math('a \\neq 0')} has the solutions</p>`,
  display('x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}'),
  `<p>The part under the root, the discriminant ${math('\\Delta = b^2 - 4ac')}, tells you how many real roots to expect${footnote('1')}.</p>`,
  '<ol><li><p>Move every term to one side so the other side is zero.</p></li><li><p>Read off <em>a</em>, <em>b</em> and <em>c</em>, signs included.</p></li><li><p>Work out the discriminant first.</p></li><li><p>Put the numbers into the formula and simplify.</p></li></ol>',
  callout('remember', `<p>If ${math('\\Delta < 0')} there is no real solution: the parabola never crosses the x-axis.</p>`),
  note('1', 'Two roots when it is positive, one repeated root when it is zero, none (real) when it is negative.'),
];

const ALIGN_ELEMENTS = ['left', 'left', 'right', 'right'];
const elements = [
  '<h2>The first elements</h2>',
  '<table><tbody>',
  row('th', ['Element', 'Symbol', 'Atomic number', 'Relative mass'], ALIGN_ELEMENTS),
  row('td', ['Hydrogen', 'H', '1', '1.008'], ALIGN_ELEMENTS),
  row('td', ['Helium', 'He', '2', '4.003'], ALIGN_ELEMENTS),
  row('td', ['Lithium', 'Li', '3', '6.94'], ALIGN_ELEMENTS),
  row('td', ['Carbon', 'C', '6', '12.011'], ALIGN_ELEMENTS),
  row('td', ['Oxygen', 'O', '8', '15.999'], ALIGN_ELEMENTS),
  row('td', ['Sodium', 'Na', '11', '22.990'], ALIGN_ELEMENTS),
  '</tbody></table>',
  `<p>Water forms as ${math('2\\mathrm{H_2} + \\mathrm{O_2} \\rightarrow 2\\mathrm{H_2O}')}: count the atoms on each side.</p>`,
  callout('tip', '<p>Elements in the same column (group) have the same number of outer electrons, so they react alike.</p>'),
];

const python = [
  '<h2>Your first program</h2>',
  '<p>Save this as <code>average.py</code> and run it with <code>python average.py</code>:</p>',
  '<pre data-language="python"><code>def average(marks):\n    """The mean of a list of marks."""\n    if not marks:\n        return 0\n    return sum(marks) / len(marks)\n\n\nprint(average([72, 85, 64]))  # 73.67</code></pre>',
  callout('warning', '<p>Indentation is part of Python: mixing tabs and spaces gives an <code>IndentationError</code>.</p>'),
  '<h3>Checklist</h3>',
  '<ul><li data-item-type="task" data-checked="true"><p>Install Python 3</p></li><li data-item-type="task" data-checked="true"><p>Run the program above</p></li><li data-item-type="task" data-checked="false"><p>Change it to print the highest mark</p></li></ul>',
];

const newton = [
  '<h2>Newton\u2019s second law</h2>',
  display('F = ma'),
  callout(
    'example',
    `<p>A 1200 kg car speeds up from rest to ${math('20\\ \\mathrm{m/s}')} in 8 s. What force does the road push it with?</p>` +
      `<p>Acceleration: ${math('a = \\frac{\\Delta v}{\\Delta t} = \\frac{20}{8} = 2.5\\ \\mathrm{m/s^2}')}. Force: ${math('F = ma = 1200 \\times 2.5 = 3000\\ \\mathrm{N}')}.</p>`,
  ),
  '<blockquote><p>Every body perseveres in its state of rest, or of uniform motion in a right line, unless it is compelled to change that state by forces impressed thereon. (Newton, <em>Principia</em>, 1687)</p></blockquote>',
  '<hr>',
];

/** Extra blocks for the articles whose subject needs them, by title. */
export const STUDY_BLOCKS: Record<string, string> = {
  'Solving Quadratic Equations Step by Step': quadratic.join('\n'),
  'The Periodic Table Explained': elements.join('\n'),
  'Your First Python Program': python.join('\n'),
  "Newton's Laws in Everyday Life": newton.join('\n'),
};
