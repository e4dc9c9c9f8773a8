import { STUDY_BLOCKS } from './demo-study-blocks.ts';

/** The demo site's content: categories, article titles, colours, links and comments. */
export const CATEGORIES = [
  'Mathematics',
  'Physics',
  'Chemistry',
  'Biology',
  'History',
  'Geography',
  'Computer Science',
  'Economics',
  'Literature',
  'Languages',
  'Exam Tips',
];

export const TOPICS: Record<string, string[]> = {
  Mathematics: [
    'Solving Quadratic Equations Step by Step',
    'A Gentle Introduction to Derivatives',
    'Probability Without Tears',
    'Vectors and Matrices for Beginners',
  ],
  Physics: ["Newton's Laws in Everyday Life", 'Understanding Electric Circuits', 'Waves, Sound and Light'],
  Chemistry: ['Balancing Chemical Equations', 'The Periodic Table Explained', 'Acids, Bases and pH'],
  Biology: ['Cell Structure and Function', 'How Photosynthesis Works', 'Genetics and Inheritance Basics'],
  History: ['Causes of the First World War', 'The Industrial Revolution in Ten Points', 'Ancient Civilisations Compared'],
  Geography: ['Plate Tectonics and Earthquakes', 'Climate Zones of the World', 'Reading Topographic Maps'],
  'Computer Science': ['Algorithms and Big-O Notation', 'How the Internet Works', 'Your First Python Program'],
  Economics: ['Supply and Demand Made Simple', 'Inflation and Interest Rates'],
  Literature: ['How to Analyse a Poem', "Themes in Shakespeare's Macbeth"],
  Languages: ['Mastering English Tenses', 'Building Vocabulary That Sticks'],
  'Exam Tips': ['Planning Your Revision Timetable', 'Active Recall and Spaced Repetition', 'Staying Calm on Exam Day'],
};

/** The carousel's slides; their pictures are drawn in demo-illustrations.ts, in this order. */
export const SLIDES = [
  { title: 'Revise smarter, not longer', altText: 'A week planner with most days ticked off' },
  { title: 'New: free PDF study notes', altText: 'A stack of note pages with a download arrow' },
  { title: 'Watch the video lessons', altText: 'A screen with a play button' },
];

export const VIDEOS = [
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://youtu.be/aqz-KE-bpKQ',
  'https://www.youtube.com/watch?v=jNQXAC9IVRw',
];

export const COMMENTERS = ['Asha', 'Ben', 'Chen', 'Dina', 'Emeka', 'Farah', 'Gustav'];
export const COMMENT_TEXTS = [
  'This explanation finally made it click for me, thank you!',
  'Could you add a few more practice questions at the end?',
  'Great summary. I printed the PDF for my revision folder.',
  'The diagram in the second section was really helpful.',
  'I shared this with my study group.',
];

export function articleHtml(title: string, category: string, index: number): string {
  return [
    `<p>This guide covers <strong>${title.toLowerCase()}</strong> as part of our ${category} series. Read it once for the big picture, then work through the examples with a pencil in hand.</p>`,
    STUDY_BLOCKS[title] ?? '',
    '<h2>Key ideas</h2>',
    '<ul><li>Start from definitions and say them in your own words.</li><li>Work one example slowly before trying harder ones.</li><li>Check every answer against the method, not just the result.</li></ul>',
    `<h3>Worked example ${index + 1}</h3>`,
    `<p>Take the simplest case first. Write down what you know, what you want, and the rule that links them. <u>Underline the step where most students slip</u>, and <em>say why</em> it works.</p>`,
    `<p><span style="color: #b91c1c">Common mistake:</span> skipping units or signs. <span style="background-color: #fef08a">Highlight</span> them while you revise.</p>`,
    '<h2>Practice</h2>',
    '<ol><li>Summarise this page in five lines.</li><li>Make three flashcards from the key ideas.</li><li>Explain the worked example to a friend.</li></ol>',
    '<p>Further reading: <a href="https://en.wikipedia.org/wiki/Study_skills">study skills on Wikipedia</a>. Questions? <a href="mailto:teacher@example.org">Email your teacher</a>.</p>',
  ].join('\n');
}
