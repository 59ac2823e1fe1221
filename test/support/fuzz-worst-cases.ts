/**
 * The worst inputs for the fuzz test, each named: alias bombs, deep
 * nesting, huge files, long names.
 */

/** Files to write, relative to the project, and the target to hand to the CLI. */
export interface FuzzCase {
  name: string;
  files: Record<string, string>;
  target: string;
}

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
    `# P\n\n## User Stories\n\n### US-001: A\n- [ ] a\n\n### US-${'1'.repeat(256_000)}${sep}${'2'.repeat(256_000)}: x\n`;
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
    { name: 'prd.md with 20,000 stories', files: { 'prd.md': bigPrdMd(20_000) }, target: 'prd.md' },
    {
      name: '512 KB heading with a space inside the id',
      files: { 'prd.md': longHeading(' ') },
      target: 'prd.md',
    },
    {
      name: '512 KB heading with a control character inside the id',
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
