/**
 * Generators of hostile task files and configs for the input fuzz test: the
 * four input kinds (prd.json, prd.md, spec files, config.yaml), each as
 * plausible documents with hostile values and as raw mutations, plus the
 * fixed worst cases (alias bombs, deep nesting, huge files, long names).
 */
import fc from 'fast-check';

/** Files to write, relative to the project, and the target to hand to the CLI. */
export interface FuzzCase {
  name: string;
  files: Record<string, string>;
  target: string;
}

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

export const VALID_PRD_JSON = `${JSON.stringify(
  {
    project: 'p',
    userStories: [
      { id: 'US-001', title: 'A', acceptanceCriteria: ['Tests pass'], priority: 1, passes: false },
    ],
  },
  null,
  2,
)}\n`;

export const configCase: fc.Arbitrary<FuzzCase> = configDoc
  .chain((text) => fc.oneof({ weight: 2, arbitrary: fc.constant(text) }, mutated(text)))
  .map((text) => ({
    name: 'config.yaml',
    files: { 'prd.json': VALID_PRD_JSON, '.ralph/config.yaml': text },
    target: 'prd.json',
  }));

/**
 * A "billion laughs" YAML document: each line nine aliases of the one above,
 * 9^7 nodes in all. Its first alias is at line 2, column 8.
 */
export const ALIAS_BOMB = [
  `a: &a [${Array(9).fill('"x"').join(', ')}]`,
  ...['b', 'c', 'd', 'e', 'f', 'g'].map(
    (name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[i]}`).join(', ')}]`,
  ),
].join('\n');

function bigPrdMd(n: number): string {
  const out = ['# PRD: Big', '', '## User Stories', ''];
  for (let i = 1; i <= n; i++) {
    out.push(
      `### US-${i}: Story ${i}`,
      `**Status:** todo`,
      `**Priority:** ${i}`,
      '- [ ] It works',
      '  and keeps working',
      '',
    );
  }
  return out.join('\n');
}

/** The worst cases, each named: alias bombs, deep nesting, huge files, long names. */
export function fixedCases(): FuzzCase[] {
  const ring = Array.from({ length: 20_000 }, (_, i) => ({
    id: `S${i}`,
    title: 't',
    acceptanceCriteria: ['Tests pass'],
    priority: 1,
    passes: false,
    dependsOn: [`S${(i + 1) % 20_000}`],
  }));
  const longHeading = (sep: string) =>
    `# P\n\n## User Stories\n\n### US-001: A\n- [ ] a\n\n### US-${'1'.repeat(128_000)}${sep}${'2'.repeat(128_000)}: x\n`;
  const specFile = (fm: string) => `---\n${fm}\n---\n# A\n`;
  return [
    {
      name: 'config alias bomb',
      files: { 'prd.json': VALID_PRD_JSON, '.ralph/config.yaml': ALIAS_BOMB },
      target: 'prd.json',
    },
    {
      name: 'front matter alias bomb',
      files: { 'specs/epic-1/story-1.1-a.md': specFile(ALIAS_BOMB) },
      target: 'specs',
    },
    {
      name: 'config flow nesting 20,000 deep',
      files: {
        'prd.json': VALID_PRD_JSON,
        '.ralph/config.yaml': `checks: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`,
      },
      target: 'prd.json',
    },
    {
      name: 'config block nesting 300 deep',
      files: {
        'prd.json': VALID_PRD_JSON,
        '.ralph/config.yaml': `${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`,
      },
      target: 'prd.json',
    },
    {
      name: 'front matter nesting 5,000 deep',
      files: { 'specs/epic-1/story-1.1-a.md': specFile(`x: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}`) },
      target: 'specs',
    },
    {
      name: 'JSON nested 10,000 deep',
      files: {
        'prd.json': `{"project":"p","x":${'['.repeat(10_000)}${']'.repeat(10_000)},"userStories":[]}`,
      },
      target: 'prd.json',
    },
    {
      name: 'JSON nested 100,000 deep in a story',
      files: {
        'prd.json': `{"project":"p","userStories":[{"id":"A","title":"t","priority":1,"passes":false,"x":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]}`,
      },
      target: 'prd.json',
    },
    {
      name: '20,000-story dependency ring',
      files: { 'prd.json': JSON.stringify({ project: 'p', userStories: ring }) },
      target: 'prd.json',
    },
    { name: 'prd.md with 10,000 stories', files: { 'prd.md': bigPrdMd(10_000) }, target: 'prd.md' },
    {
      name: '256 KB heading with a space inside the id',
      files: { 'prd.md': longHeading(' ') },
      target: 'prd.md',
    },
    {
      name: '256 KB heading with a control character inside the id',
      files: { 'prd.md': longHeading('\u0001') },
      target: 'prd.md',
    },
    {
      name: '256 KB field line',
      files: {
        'prd.md': `# P\n\n### US-001: A\n**Status:**${' '.repeat(256_000)}x\n**Priority:${' '.repeat(256_000)}\n`,
      },
      target: 'prd.md',
    },
    {
      name: '100,000-character story id and branch name',
      files: {
        'prd.json': JSON.stringify({
          project: 'p',
          branchName: `ralph/${'b'.repeat(100_000)}`,
          userStories: [
            { id: 'U'.repeat(100_000), title: 't', acceptanceCriteria: [], priority: 1, passes: false },
          ],
        }),
      },
      target: 'prd.json',
    },
    { name: '300-character target name', files: {}, target: 'x'.repeat(300) },
    { name: '300-character target file name', files: {}, target: `${'y'.repeat(300)}.json` },
    {
      name: 'spec file with a 250-character slug',
      files: {
        [`specs/epic-1/story-1.1-${'s'.repeat(230)}.md`]: specFile('status: pending\npriority: critical'),
      },
      target: 'specs',
    },
  ];
}
