/**
 * Others' text carrying terminal escapes — a clipboard write (OSC 52), a
 * screen clear, a window title — and how ralph shows it to a person: as
 * symbols. For the tests that feed it through every human-facing output.
 */

export const CLIPBOARD = '\u001b]52;c;SE9TVElMRQ==\u0007';
export const CLEAR = '\u001b[2J';
export const WINDOW = '\u001b]0;PWNED\u0007';
export const TITLE = `Greet ${CLIPBOARD}clip ${CLEAR}clear ${WINDOW}title`;
export const SHOWN_TITLE = 'Greet ␛]52;c;SE9TVElMRQ==␇clip ␛[2Jclear ␛]0;PWNED␇title';
/** With a C1 control too (CSI as one character), which JSON.stringify leaves raw. */
export const AGENT_SAYS = `Looking around ${CLIPBOARD}AGENT-CLIP and ${CLEAR}AGENT-CLEAR \u009b2J.`;
export const SHOWN_AGENT_SAYS =
  'Looking around ␛]52;c;SE9TVElMRQ==␇AGENT-CLIP and ␛[2JAGENT-CLEAR \\u009b2J.';
/** A C0 control but tab and line feed, DEL, or C1: none may reach a person's terminal raw. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
