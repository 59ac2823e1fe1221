/** The one domain model every task source reads into and writes back from. */

/** The task file formats, and `github`: open issues with a label (no file in the checkout). */
export type TaskFormat = 'prd-json' | 'prd-md' | 'spec-dir' | 'github';

export type StoryStatus = 'todo' | 'in-progress' | 'done';

export interface Story {
  id: string;
  title: string;
  description: string;
  acceptanceCriteria: string[];
  /**
   * Each criterion's own tick (`- [x]` / `- [ ]`), parallel to
   * `acceptanceCriteria`, when the source records one per criterion.
   */
  checkedCriteria?: boolean[];
  /** Lower runs first. Sources without priorities use their file order. */
  priority: number;
  status: StoryStatus;
  dependsOn: string[];
  notes?: string;
  /**
   * Fields of the story's prd.json entry that ralph does not use itself
   * (ralph-tui's `labels`, `completionNotes`, `metadata`, anything else), in
   * their order, so a conversion keeps them.
   */
  otherFields?: Record<string, unknown>;
  /**
   * Position in the source's natural order (file order for PRDs, epic/story
   * number for spec directories). Ties in priority are broken by it.
   */
  order: number;
  /** Where the story is defined, for messages. */
  location: SourceLocation;
}

export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface Prd {
  format: TaskFormat;
  /** The task file (prd.json / prd.md) or the spec directory. */
  path: string;
  project: string;
  branchName?: string;
  /** Where `branchName` is written, for messages. */
  branchLocation?: SourceLocation;
  description?: string;
  stories: Story[];
  /** Top-level fields of a prd.json that ralph does not use itself, in their order. */
  otherFields?: Record<string, unknown>;
  /**
   * A prd.md's text outside its stories (Overview, Goals, Non-Goals,
   * Functional Requirements, grouping headings, ...), verbatim and in order,
   * so a conversion to prd.json and back keeps it.
   */
  sections?: PrdSection[];
  /**
   * A prd.json's own objects (the file's top level and each story), as
   * written, so `ralph convert` json -> md -> json gives back every field
   * as it was (see sources/json-originals.ts).
   */
  jsonOriginals?: JsonOriginals;
}

/** One prd.json object as written, and a digest of how ralph read it (from the prd.json, or the prd.md that carried it). */
export interface JsonOriginal {
  value: Record<string, unknown>;
  reading: string;
}

export interface JsonOriginals {
  /** The top-level object, its `userStories` left out (null, to keep the key's place). */
  top?: JsonOriginal;
  /** Each story's object by its id. */
  stories: Record<string, JsonOriginal>;
}

export interface PrdSection {
  markdown: string;
  /** The story this text comes right before; none: after the last story. */
  beforeStory?: string;
  /** Text above the prd.md's `# Title` (ralph-tui's `[PRD]` line), written back there. */
  beforeTitle?: true;
}

export const isPassed = (story: Story): boolean => story.status === 'done';
