/** The first line of a text (a goal, a step's prompt, an agent's summary), for one-line views. */
export const firstLine = (text: string): string => text.trim().split('\n')[0] ?? '';
