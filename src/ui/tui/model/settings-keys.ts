/** Keys on the settings screen: move, toggle, edit a text field, save at once. */
import type { KeyPress, KeyResult } from './keys.js';
import { isTextRow, settingRows, textPatch, togglePatch } from './settings-rows.js';
import type { SettingsView, TuiState } from './tui-state.js';

export function handleSettingsKey(state: TuiState, view: SettingsView, press: KeyPress): KeyResult {
  const rows = settingRows(state.settings);
  const row = rows[Math.min(view.index, rows.length - 1)];
  const set = (next: Partial<SettingsView>): KeyResult => ({
    state: { ...state, view: { ...view, ...next } },
    effects: [],
  });

  if (view.editing !== null) {
    if (press.escape) return set({ editing: null });
    if (press.enter) {
      const patch =
        row !== undefined && isTextRow(row) ? textPatch(row, view.editing.text, state.settings) : null;
      if (patch === null) return set({ editing: null });
      return {
        state: { ...state, view: { ...view, editing: null, saving: true, message: 'saving…', issues: [] } },
        effects: [{ type: 'save-settings', patch }],
      };
    }
    if (press.backspace) return set({ editing: { text: view.editing.text.slice(0, -1) } });
    // Printable input (a key, or a paste), without the line breaks a paste may carry.
    if (!press.ctrl && press.input !== '' && !press.up && !press.down) {
      const typed = press.input.replace(/[\r\n]+/g, ' ').replace(/\p{Cc}/gu, '');
      return set({ editing: { text: view.editing.text + typed } });
    }
    return set({});
  }

  if (press.escape || press.input === ',' || press.input === 'q')
    return { state: { ...state, view: { kind: 'dashboard' } }, effects: [] };
  const step = press.down || press.input === 'j' ? 1 : press.up || press.input === 'k' ? -1 : 0;
  if (step !== 0) {
    const index = Math.max(0, Math.min(rows.length - 1, view.index + step));
    return set({ index, message: null });
  }
  if (row === undefined) return set({});
  if (press.enter || press.input === ' ' || press.left || press.right) {
    if (isTextRow(row)) {
      if (!press.enter) return set({});
      return set({ editing: { text: row.value }, message: null, issues: [] });
    }
    const patch = togglePatch(row, state.settings, press.left ? -1 : 1);
    if (patch === null) return set({});
    return {
      state: { ...state, view: { ...view, saving: true, message: 'saving…', issues: [] } },
      effects: [{ type: 'save-settings', patch }],
    };
  }
  return set({});
}
