/**
 * The header's first line fitted to the terminal: `ralph <project> (<name>)
 * <goal · mode> <state>`. The state and the mode say what the user can do
 * now, so they are kept whole; the project's title gives way first (the
 * name is on the tab below it anyway), and is cut to what is left.
 */
import { clip } from './format.js';

export interface HeaderTitle {
  project: string;
  /** Null when it does not fit beside the title. */
  name: string | null;
  mode: string | null;
  badge: string;
}

const LEAD = 'ralph '.length;

export function fitTitle(columns: number, title: HeaderTitle): HeaderTitle {
  const mode = title.mode === null ? 0 : title.mode.length + 1;
  const badge = clip(title.badge, Math.max(1, columns - LEAD - mode));
  // What the project and its name may take: the line less `ralph `, the mode and the state, and a space.
  const room = columns - LEAD - mode - badge.length - 1;
  const name = title.name === null ? 0 : title.name.length + 3;
  if (title.project.length + name <= room) return { ...title, badge };
  return { project: clip(title.project, Math.max(0, room)), name: null, mode: title.mode, badge };
}
