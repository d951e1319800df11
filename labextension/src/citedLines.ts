/**
 * The cited lines of a file or notebook cell, marked in its CodeMirror editor: a line
 * decoration (not a selection, which the first click would lose) with a small "clear"
 * control at the end of the first line. It stays until dismissed: Escape in the editor,
 * the control, editing the text, or another citation marking other lines.
 */
import { EditorState, Extension, Prec, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { Decoration, DecorationSet, EditorView, keymap, WidgetType } from '@codemirror/view';
import { CodeEditor } from '@jupyterlab/codeeditor';

/** Line ranges `[from, to]`, 1-based and inclusive, in order; or null to clear. */
const setCited = StateEffect.define<Array<[number, number]> | null>();

class ClearControl extends WidgetType {
  eq(): boolean {
    return true;
  }

  toDOM(view: EditorView): HTMLElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'athena-cited-clear';
    button.dataset.testid = 'athena-cited-clear';
    button.textContent = '\u00d7';
    button.title = 'Clear the citation highlight (Escape)';
    button.setAttribute('aria-label', 'Clear the citation highlight');
    button.addEventListener('mousedown', event => {
      event.preventDefault(); // keep the cursor where it was
      view.dispatch({ effects: setCited.of(null) });
    });
    return button;
  }

  ignoreEvent(): boolean {
    return true;
  }
}

const citedLine = Decoration.line({ class: 'athena-cited-line', attributes: { 'data-testid': 'athena-cited-line' } });

function decorations(state: EditorState, ranges: Array<[number, number]>): DecorationSet {
  const doc = state.doc;
  const builder = new RangeSetBuilder<Decoration>();
  let after = 0; // RangeSetBuilder takes ranges in order, each line once
  ranges.forEach(([from, to], i) => {
    const first = Math.max(Math.min(Math.max(from, 1), doc.lines), after + 1);
    const last = Math.min(Math.max(to, first), doc.lines);
    for (let n = first; n <= last; n++) {
      const line = doc.line(n);
      builder.add(line.from, line.from, citedLine);
      if (i === 0 && n === first) {
        builder.add(line.to, line.to, Decoration.widget({ widget: new ClearControl(), side: 1 }));
      }
    }
    after = Math.max(after, last);
  });
  return builder.finish();
}

const citedField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const effect of tr.effects) {
      if (effect.is(setCited)) {
        marks = effect.value ? decorations(tr.state, effect.value) : Decoration.none;
      }
    }
    // Editing the file dismisses the mark: its lines no longer hold what was cited.
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: field => EditorView.decorations.from(field)
});

const dismissOnEscape = Prec.highest(
  keymap.of([
    {
      key: 'Escape',
      run: view => {
        if (!view.state.field(citedField).size) {
          return false; // nothing marked: Escape does what it always does
        }
        view.dispatch({ effects: setCited.of(null) });
        return true;
      }
    }
  ])
);

const extension: Extension = [citedField, dismissOnEscape];

/** Lab's CodeMirror 6 editor (@jupyterlab/codemirror CodeMirrorEditor), as far as used here. */
interface ICodeMirrorEditor {
  editor: EditorView;
  injectExtension(ext: Extension): void;
}

/**
 * Mark the line ranges `[start, end]` (1-based, inclusive, in order) of `editor` as cited
 * and scroll the first to the middle of the view; false when the editor is not CodeMirror 6.
 */
export function markCitedLines(editor: CodeEditor.IEditor, ranges: Array<[number, number]>): boolean {
  const cm = editor as unknown as Partial<ICodeMirrorEditor>;
  const view = cm.editor;
  if (!view || typeof cm.injectExtension !== 'function' || !(view instanceof EditorView) || !ranges.length) {
    return false;
  }
  if (view.state.field(citedField, false) === undefined) {
    cm.injectExtension(extension);
  }
  const doc = view.state.doc;
  const first = Math.min(Math.max(ranges[0][0], 1), doc.lines);
  view.dispatch({
    effects: [setCited.of(ranges), EditorView.scrollIntoView(doc.line(first).from, { y: 'center' })],
    selection: { anchor: doc.line(first).from }
  });
  return true;
}
