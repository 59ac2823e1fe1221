/** Where a file sits in a spec directory, decided from its relative path alone. */
export type SpecPath =
  | { kind: 'story'; id: string; epic: number; story: number; slug: string }
  | { kind: 'skip'; message: string }
  | { kind: 'ignore' };

const EPIC_DIR = /^epic-(\d+)$/;
const STORY_FILE = /^story-(\d+)\.(\d+)(?:-(.+))?\.md$/;

/**
 * Classifies `epic-N/story-N.M-slug.md` (posix, relative to the specs dir).
 * Markdown that looks misplaced or misnamed is skipped with a warning; other
 * files (a README beside the epics, images) are ignored.
 */
export function classifySpecPath(relPath: string): SpecPath {
  const parts = relPath.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (!name.endsWith('.md')) return { kind: 'ignore' };
  const story = STORY_FILE.exec(name);

  if (parts.length === 1) {
    return name.startsWith('story-')
      ? { kind: 'skip', message: `${relPath} is not inside an epic-N directory; skipped` }
      : { kind: 'ignore' };
  }
  const epicDir = parts.length === 2 ? EPIC_DIR.exec(parts[0] ?? '') : null;
  if (!epicDir) return { kind: 'ignore' };
  if (!story?.[1] || !story[2]) {
    return { kind: 'skip', message: `${relPath} does not match story-N.M-slug.md; skipped` };
  }
  if (Number(story[1]) !== Number(epicDir[1])) {
    return {
      kind: 'skip',
      message: `${relPath}: story ${story[1]}.${story[2]} is not in epic-${story[1]}/; skipped`,
    };
  }
  return {
    kind: 'story',
    id: `${Number(story[1])}.${Number(story[2])}`,
    epic: Number(story[1]),
    story: Number(story[2]),
    slug: story[3] ?? '',
  };
}

/** `user-login-form` -> `User login form`. */
export function slugToTitle(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
