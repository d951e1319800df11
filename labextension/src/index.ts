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
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { IStateDB } from '@jupyterlab/statedb';

import { getInfo } from './api';
import { ICitation } from './types';
import { ChatPanel, IChatSettings } from './chatPanel';
import { athenaIcon } from './icon';
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

function addCommands(app: JupyterFrontEnd, panel: ChatPanel, palette: ICommandPalette | null): void {
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
    app.shell.add(panel, 'left', { rank: 150 });
    restorer?.add(panel, PANEL_ID);
    addCommands(app, panel, palette);
    if (notebooks) {
      showSavedAnswers(notebooks, rendermime);
    }

    if (settingRegistry) {
      try {
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
