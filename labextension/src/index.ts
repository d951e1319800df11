/**
 * athena-lab: the JupyterLab sidebar chat. Registers the panel, its commands, the
 * keyboard shortcut and the settings that travel with each question.
 */
import {
  ILayoutRestorer,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { INotebookTracker } from '@jupyterlab/notebook';
import { Cell } from '@jupyterlab/cells';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { IStateDB } from '@jupyterlab/statedb';
import type { PartialJSONObject, ReadonlyPartialJSONObject } from '@lumino/coreutils';

import { getInfo } from './api';
import { ICitation, IIndexInfo } from './types';
import { IAttachedContext } from './components/composer';
import { ChatPanel, IChatSettings } from './chatPanel';
import { athenaIcon } from './icon';
import { openPdfPreview, PDF_PREVIEW_COMMAND, pdfPreviewTracker } from './open';
import { showSavedAnswers } from './savedWidget';
import { ConversationMemory } from './state';

const PLUGIN_ID = 'athena-lab:plugin';
const PANEL_ID = 'athena-chat';

const DEFAULT_SETTINGS: IChatSettings = {
  provider: '',
  model: '',
  topK: 8,
  defaultFilters: { path_prefix: '', kind: '' }
};

function readSettings(settings: ISettingRegistry.ISettings): IChatSettings {
  const get = <T>(key: string, fallback: T): T => (settings.get(key).composite as T) ?? fallback;
  return {
    provider: get('provider', ''),
    model: get('model', ''),
    topK: get('topK', 8),
    defaultFilters: { path_prefix: get('defaultPathPrefix', ''), kind: get('defaultKind', '') }
  };
}

/** "local" names the model it runs by default, so the settings offer it by name. */
function providerTitle(name: string, info: IIndexInfo | null): string {
  const model = name === 'local' ? info?.local_models?.find(m => m.default) : undefined;
  if (!model) {
    return name;
  }
  return `local: ${model.title} on this machine${model.installed ? '' : ` (not installed: ${model.install})`}`;
}

/**
 * The settings form's choices: the provider list comes from the server (GET /athena/info
 * `providers`), so a provider the server gains shows up without a new extension; empty
 * means the server's configured provider.
 */
function settingsTransform(info: IIndexInfo | null): {
  fetch: (plugin: ISettingRegistry.IPlugin) => ISettingRegistry.IPlugin;
  compose: (plugin: ISettingRegistry.IPlugin) => ISettingRegistry.IPlugin;
} {
  return {
    fetch: plugin => {
      const properties = plugin.schema.properties ?? {};
      const providers = info?.providers ?? [];
      if (providers.length && properties.provider) {
        const current = info?.mode ?? info?.provider ?? '';
        properties.provider = {
          ...properties.provider,
          oneOf: [
            { const: '', title: `the server's choice${current ? ` (now ${current})` : ''}` },
            ...providers.map(name => ({ const: name, title: providerTitle(name, info) }))
          ]
        };
      }
      const local = info?.local_models ?? [];
      if (local.length && properties.model) {
        properties.model = {
          ...properties.model,
          description:
            `${properties.model.description ?? ''} With the local provider: ` +
            local.map(m => `${m.name} (${m.title}${m.installed ? '' : `; ${m.install}`})`).join(', ') +
            '.',
          examples: local.map(m => m.name)
        };
      }
      return plugin;
    },
    compose: plugin => {
      // With a transform the registry leaves composing to us: defaults, then the user's values.
      const defaults: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(plugin.schema.properties ?? {})) {
        defaults[key] = (property as { default?: unknown }).default;
      }
      const user = (plugin.data?.user ?? {}) as Record<string, unknown>;
      plugin.data = { user: user as PartialJSONObject, composite: { ...defaults, ...user } as PartialJSONObject };
      return plugin;
    }
  };
}

/**
 * The active notebook cell's source, or the part of it selected in its editor, as context
 * for the next question: "cell 3 of analysis.ipynb", "4 selected lines of cell 3 of …".
 */
export function cellContext(notebooks: INotebookTracker | null): IAttachedContext | null {
  const panel = notebooks?.currentWidget;
  const cell: Cell | null | undefined = panel?.content.activeCell;
  if (!panel || !cell) {
    return null;
  }
  const source = cell.model.sharedModel.getSource();
  const number = panel.content.activeCellIndex + 1;
  const name = panel.context.path.split('/').pop() ?? panel.context.path;
  const editor = cell.editor;
  if (editor) {
    const selection = editor.getSelection();
    const start = editor.getOffsetAt(selection.start);
    const end = editor.getOffsetAt(selection.end);
    const selected = source.slice(Math.min(start, end), Math.max(start, end));
    if (selected.trim()) {
      const lines = selected.split('\n').length;
      return { label: `${lines} selected line${lines === 1 ? '' : 's'} of cell ${number} of ${name}`, text: selected };
    }
  }
  return source.trim() ? { label: `cell ${number} of ${name}`, text: source } : null;
}

function addCommands(
  app: JupyterFrontEnd,
  panel: ChatPanel,
  palette: ICommandPalette | null,
  notebooks: INotebookTracker | null
): void {
  const { commands, shell } = app;
  const commandList: Array<[string, string, () => unknown]> = [
    [
      'athena:focus-chat',
      'Athena: Focus the Chat',
      () => {
        shell.activateById(panel.id);
        panel.focusInput();
      }
    ],
    [
      'athena:new-conversation',
      'Athena: New Conversation',
      () => {
        shell.activateById(panel.id);
        return panel.newConversation();
      }
    ],
    ['athena:reindex', 'Athena: Reindex the Folder', () => panel.reindex()],
    [
      'athena:insert-answer',
      'Athena: Insert Last Answer in Notebook',
      () => panel.lastAnswer && panel.insert(panel.lastAnswer)
    ],
    [
      'athena:copy-answer',
      'Athena: Copy Last Answer',
      () => panel.lastAnswer && panel.copy(panel.lastAnswer)
    ]
  ];
  for (const [id, label, execute] of commandList) {
    commands.addCommand(id, { label, icon: athenaIcon, execute });
    palette?.addItem({ command: id, category: 'Athena' });
  }
  // "Ask about this cell": the active cell (or its selection) becomes the next question's context.
  commands.addCommand('athena:ask-about-cell', {
    label: 'Ask Athena about This Cell',
    caption: 'Attach the active cell (or the selected part of it) to the next question in the Athena chat',
    icon: athenaIcon,
    isEnabled: () => Boolean(notebooks?.currentWidget?.content.activeCell),
    execute: () => {
      const context = cellContext(notebooks);
      if (!context) {
        return;
      }
      shell.activateById(panel.id);
      panel.attachContext(context);
    }
  });
  palette?.addItem({ command: 'athena:ask-about-cell', category: 'Athena' });
  app.contextMenu.addItem({ command: 'athena:ask-about-cell', selector: '.jp-Notebook .jp-Cell', rank: 20 });
  // For the notebook answer widget: its citation chips open sources exactly as the chat does,
  // by command or by a window event (the widget cannot import this extension).
  commands.addCommand('athena:open-citation', {
    label: 'Athena: Open Citation',
    execute: args => panel.openCitation(args as unknown as ICitation)
  });
  window.addEventListener('athena:open-citation', event => {
    const detail = (event as CustomEvent<ICitation>).detail;
    if (detail && typeof detail.path === 'string') {
      event.preventDefault();
      void panel.openCitation(detail);
    }
  });
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'Sidebar chat that answers from the indexed folder with citations that open the source.',
  autoStart: true,
  requires: [IDocumentManager, IRenderMimeRegistry],
  optional: [ILayoutRestorer, ICommandPalette, INotebookTracker, ISettingRegistry, IStateDB],
  activate: async (
    app: JupyterFrontEnd,
    docManager: IDocumentManager,
    rendermime: IRenderMimeRegistry,
    restorer: ILayoutRestorer | null,
    palette: ICommandPalette | null,
    notebooks: INotebookTracker | null,
    settingRegistry: ISettingRegistry | null,
    state: IStateDB | null
  ) => {
    let settings = DEFAULT_SETTINGS;
    const panel = new ChatPanel({
      app,
      docManager,
      rendermime,
      notebooks,
      memory: new ConversationMemory(state),
      settings: () => settings
    });
    panel.id = PANEL_ID;
    panel.title.icon = athenaIcon;
    panel.title.caption = 'Athena: ask your documents';
    // A PDF page preview tab comes back after a reload, at the page it showed.
    app.commands.addCommand(PDF_PREVIEW_COMMAND, {
      label: 'Athena: Open PDF Page Preview',
      execute: args =>
        openPdfPreview({ app, docManager, labPathPrefix: '' }, String(args.path), args.citation as unknown as ICitation)
    });
    void restorer?.restore(pdfPreviewTracker, {
      command: PDF_PREVIEW_COMMAND,
      args: preview => ({
        path: preview.node.dataset.path ?? '',
        citation: (preview.content.citation ?? {}) as unknown as ReadonlyPartialJSONObject
      }),
      name: preview => preview.node.dataset.path ?? ''
    });
    app.shell.add(panel, 'left', { rank: 150 });
    restorer?.add(panel, PANEL_ID);
    addCommands(app, panel, palette, notebooks);
    if (notebooks) {
      showSavedAnswers(notebooks, rendermime);
    }

    if (settingRegistry) {
      try {
        let info: IIndexInfo | null = null;
        try {
          info = await getInfo();
        } catch {
          // No server answer: the settings form offers a free-text provider.
        }
        settingRegistry.transform(PLUGIN_ID, settingsTransform(info));
        const loaded = await settingRegistry.load(PLUGIN_ID);
        settings = readSettings(loaded);
        loaded.changed.connect(() => {
          settings = readSettings(loaded);
          panel.applySettings();
        });
      } catch (err) {
        console.warn(`athena-lab: settings could not be loaded, using defaults: ${err}`);
      }
    }
    // Not awaited: app.restored waits for every plugin, including this one.
    void app.restored.then(async () => {
      await panel.start();
      try {
        if ((await getInfo()).open_chat) {
          app.shell.activateById(panel.id);
        }
      } catch {
        // No index info yet: the panel shows its own status; nothing to open.
      }
    });
  }
};

export default plugin;
