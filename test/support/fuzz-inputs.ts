/**
 * Generators of hostile task files and configs for the input fuzz test: the
 * four input kinds (prd.json, prd.md, spec files, config.yaml), each as
 * plausible documents with hostile values and as raw mutations. The fixed
 * worst cases are in fuzz-worst-cases.ts.
 */
import fc from 'fast-check';
import { type FuzzCase, VALID_PRD_JSON } from './fuzz-worst-cases.js';

const hostileChars = [
  ' ',
  '\t',
  '.',
  '..',
  '/',
  '\\',
  ':',
  '<',
  '>',
  '`',
  '"',
  "'",
  '@{',
  '~',
  '^',
  '*',
  '[',
  '#',
  '-',
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\u200b',
  '\u202e',
  'é',
  '\ud83d\ude00',
  '\ud800',
  '$(rm -rf ~)',
  '; echo pwned',
  '\r',
  '\n',
];

/** Mostly sensible text with a hostile piece now and then. */
export const hostileText = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,6}$/) },
      fc.constantFrom(...hostileChars),
    ),
    {
      maxLength: 6,
    },
  )
  .map((parts) => parts.join(''));

export const storyId = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 12 }).map((n) => `US-${String(n).padStart(3, '0')}`) },
  fc.constantFrom('FEAT-1', 'us-001', 'US-2.1', '1.2', 'T1', 'AUTH', 'US..1', 'US 1', 'a/b', '-x', '.x'),
  hostileText,
);

const jsonStory = (ids: readonly string[]) =>
  fc.record(
    {
      id: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...ids) },
        storyId,
        fc.integer(),
        fc.constant(null),
      ),
      title: fc.oneof(hostileText, fc.integer()),
      description: hostileText,
      acceptanceCriteria: fc.oneof(fc.array(hostileText, { maxLength: 3 }), hostileText),
      acceptanceCriteriaChecked: fc.array(fc.boolean(), { maxLength: 3 }),
      priority: fc.oneof(fc.integer({ min: -3, max: 20 }), fc.double(), hostileText),
      passes: fc.oneof({ weight: 5, arbitrary: fc.boolean() }, fc.constant('yes')),
      inProgress: fc.boolean(),
      dependsOn: fc.oneof(fc.subarray([...ids]), fc.array(storyId, { maxLength: 2 }), hostileText),
      labels: fc.array(hostileText, { maxLength: 2 }),
      notes: hostileText,
    },
    { requiredKeys: [] },
  );

const prdJsonDoc = fc.uniqueArray(storyId, { minLength: 0, maxLength: 6 }).chain((ids) =>
  fc.record(
    {
      project: hostileText,
      name: hostileText,
      branchName: fc.oneof(
        fc.constantFrom('ralph/x', 'ralph/x ', 'a..b', 'HEAD', '-b', 'x.lock'),
        hostileText,
      ),
      description: hostileText,
      userStories: fc.array(jsonStory(ids.length > 0 ? ids : ['US-001']), { maxLength: 8 }),
      metadata: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: ['userStories'] },
  ),
);

/** Random single-character edits of a text: deletions, insertions, replacements. */
const mutated = (text: string) =>
  fc
    .array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('delete', 'insert', 'replace'),
        fc.constantFrom(...'{}[]",:#*-\n \t`\\'.split('')),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((edits) => {
      let out = text;
      for (const [at, kind, ch] of edits) {
        const i = out.length === 0 ? 0 : at % out.length;
        if (kind === 'delete') out = out.slice(0, i) + out.slice(i + 1);
        else if (kind === 'insert') out = out.slice(0, i) + ch + out.slice(i);
        else out = out.slice(0, i) + ch + out.slice(i + 1);
      }
      return out;
    });

export const prdJsonCase: fc.Arbitrary<FuzzCase> = fc
  .oneof(
    { weight: 3, arbitrary: prdJsonDoc.map((doc) => JSON.stringify(doc, null, 2)) },
    prdJsonDoc.chain((doc) => mutated(JSON.stringify(doc, null, 2))),
    fc.json({ maxDepth: 4 }),
  )
  .map((text) => ({ name: 'prd.json', files: { 'prd.json': text }, target: 'prd.json' }));

const mdLine = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 6 }), storyId, hostileText)
      .map(([level, id, title]) => `${'#'.repeat(level)} ${id}: ${title}`),
  },
  fc.constantFrom(
    '## User Stories',
    '### Phase 1: Core',
    '### Feature 1.1: A feature',
    '#### Acceptance Criteria',
    '**Acceptance Criteria:**',
    '```',
    '---',
    '',
    '',
    '> Branch: `ralph/x`',
    '**Branch:** ralph/ x',
  ),
  fc
    .tuple(
      fc.constantFrom('Status', 'Priority', 'Depends on', 'Description', 'Notes', 'Dependencies'),
      hostileText,
    )
    .map(([field, value]) => `**${field}:** ${value}`),
  fc
    .tuple(fc.constantFrom('- [ ] ', '- [x] ', '* [X] ', '- ', '1. ', '      ', '\t'), hostileText)
    .map(([lead, text]) => lead + text),
  hostileText,
);

export const prdMdCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(fc.option(hostileText, { nil: undefined }), fc.array(mdLine, { maxLength: 40 }))
  .map(([title, lines]) => [...(title === undefined ? [] : [`# PRD: ${title}`, '']), ...lines].join('\n'))
  .chain((text) => fc.oneof({ weight: 3, arbitrary: fc.constant(text) }, mutated(text)))
  .map((text) => ({ name: 'prd.md', files: { 'prd.md': text }, target: 'prd.md' }));

const yamlValue = fc.oneof(
  hostileText.map((t) => JSON.stringify(t)),
  fc.constantFrom(
    'pending',
    'done',
    'In-Progress',
    'critical',
    'low',
    '3',
    '1.10',
    '[1.1, "2.1"]',
    '[]',
    '~',
    '{a: 1}',
    '&a [1]',
    '*a',
    '!!binary x',
    '|\n  text',
    '"unclosed',
    '[1, [2, [3]]]',
  ),
  fc.integer().map(String),
);

const frontMatter = fc
  .array(
    fc.tuple(
      fc.constantFrom('status', 'priority', 'depends_on', 'id', 'title', 'estimation', 'epic', 'x'),
      yamlValue,
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`).join('\n'));

const specBody = fc.array(
  fc.oneof(
    fc.constantFrom(
      '## Acceptance Criteria',
      '### AC1: Works',
      '- **Given** a',
      '- **When** b',
      '- **Then** c',
      '# Title',
      '',
    ),
    mdLine,
  ),
  { maxLength: 12 },
);

const specPath = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 12 }),
        fc.stringMatching(/^[a-z-]{0,12}$/),
      )
      .map(([e, s, slug]) => `epic-${e}/story-${e}.${s}${slug ? `-${slug}` : ''}.md`),
  },
  fc.constantFrom('epic-1/notes.md', 'story-1.1-loose.md', 'epic-1/story-2.1-wrong.md', 'README.md'),
);

export const specDirCase: fc.Arbitrary<FuzzCase> = fc
  .array(
    fc
      .tuple(specPath, frontMatter, specBody, fc.constantFrom('ok', 'unclosed', 'none', 'mutated'))
      .chain(([path, fm, body, shape]) => {
        const text = `---\n${fm}\n---\n${body.join('\n')}\n`;
        if (shape === 'unclosed') return fc.constant([path, `---\n${fm}\n${body.join('\n')}`] as const);
        if (shape === 'none') return fc.constant([path, body.join('\n')] as const);
        if (shape === 'mutated') return mutated(text).map((t) => [path, t] as const);
        return fc.constant([path, text] as const);
      }),
    { minLength: 1, maxLength: 5 },
  )
  .map((files) => ({
    name: 'spec dir',
    files: Object.fromEntries(files.map(([path, text]) => [`specs/${path}`, text])),
    target: 'specs',
  }));

const configKey = fc.constantFrom(
  'agent',
  'agent.provider',
  'agent.model',
  'agent.args',
  'checks',
  'limits.maxRetries',
  'limits.timeout',
  'onFailure',
  'worktree.setup',
  'hooks',
  'notifications.bell',
  'agnet',
);

const configDoc = fc.array(fc.tuple(configKey, yamlValue), { maxLength: 8 }).map((pairs) =>
  pairs
    .map(([key, value]) => {
      const [top, sub] = key.split('.');
      return sub ? `${top}:\n  ${sub}: ${value}` : `${top}: ${value}`;
    })
    .join('\n'),
);

export const configCase: fc.Arbitrary<FuzzCase> = configDoc
  .chain((text) => fc.oneof({ weight: 2, arbitrary: fc.constant(text) }, mutated(text)))
  .map((text) => ({
    name: 'config.yaml',
    files: { 'prd.json': VALID_PRD_JSON, '.ralph/config.yaml': text },
    target: 'prd.json',
  }));
