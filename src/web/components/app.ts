import { useEffect, useState } from 'preact/hooks';
import { apiKey, onUnauthorized, setApiKey } from '../api/api-client.ts';
import { useChat } from '../chat/use-chat.ts';
import { useSessions } from '../chat/use-sessions.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { AccessContext, useCallerAccess } from './access-context.ts';
import { ApiKeyPrompt } from './api-key-prompt.ts';
import { ChatView } from './chat-view.ts';
import { DocumentsView } from './documents-view.ts';
import { EvalsView } from './evals-view.ts';
import { GraphsView } from './graphs-view.ts';
import { Inspector } from './inspector.ts';
import { MemoryView } from './memory-view.ts';
import { SessionList } from './session-list.ts';
import { StatusBar } from './status-bar.ts';

type View = 'chat' | 'documents' | 'memory' | 'graphs' | 'evals';

/**
 * The console: header with the views, status bar, sessions, the view, and the run inspector;
 * what the signed-in credentials may not do is hidden or disabled throughout.
 */
export function App() {
  const [view, setView] = useState<View>('chat');
  const [needKey, setNeedKey] = useState(false);
  const [keyRefused, setKeyRefused] = useState(false);
  const [authVersion, setAuthVersion] = useState(0);
  const chat = useChat(authVersion);
  const sessions = useSessions(chat.runsVersion, authVersion);
  const access = useCallerAccess(authVersion);

  useEffect(
    () =>
      onUnauthorized((refused) => {
        setNeedKey(true);
        setKeyRefused(refused);
      }),
    [],
  );

  const submitKey = (key: string) => {
    setApiKey(key);
    setNeedKey(false);
    setAuthVersion((version) => version + 1);
  };
  const showChat = (action: () => void) => () => {
    action();
    setView('chat');
  };
  const tab = (name: View, testId: string) =>
    html`<button
      type="button"
      class="tab"
      data-testid=${testId}
      aria-current=${view === name ? 'page' : undefined}
      onClick=${() => setView(name)}
    >
      ${t(name)}
    </button>`;
  const turns = chat.items.filter((item) => item.kind === 'assistant');
  const inspected = turns.find((item) => item.key === chat.inspectKey);
  const showInspector = view === 'chat' && inspected !== undefined;

  return html`
    <${AccessContext.Provider} value=${access}>
    <div class=${`app view-${view}${showInspector ? ' with-inspector' : ''}`}>
      <header class="topbar">
        <h1 class="brand"><span aria-hidden="true">≋</span> 여울 Yeoul</h1>
        <nav class="tabs" aria-label=${t('views')}>
          ${tab('chat', 'chat')} ${tab('documents', 'documents')} ${tab('memory', 'memory')}
          ${tab('graphs', 'graphs')} ${tab('evals', 'evals')}
        </nav>
      </header>
      <${StatusBar} runsVersion=${chat.runsVersion} authVersion=${authVersion} />
      <${SessionList}
        sessions=${sessions}
        current=${chat.sessionId}
        pendingTitle=${chat.items[0]?.kind === 'user' ? chat.items[0].text : ''}
        onNew=${showChat(chat.newSession)}
        onOpen=${(id: string) => showChat(() => chat.openSession(id))()}
        onDelete=${chat.deleteSession}
      />
      <main class="main" id="main">
        ${
          view === 'chat'
            ? html`<${ChatView}
                chat=${chat}
                sessions=${sessions}
                onOpen=${(id: string) => chat.openSession(id)}
              />`
            : null
        }
        ${view === 'documents' ? html`<${DocumentsView} version=${authVersion} />` : null}
        ${view === 'memory' ? html`<${MemoryView} version=${authVersion} />` : null}
        ${view === 'graphs' ? html`<${GraphsView} version=${authVersion} />` : null}
        ${
          view === 'evals'
            ? html`<${EvalsView}
                version=${authVersion}
                onOpenSession=${(id: string) => showChat(() => chat.openSession(id))()}
              />`
            : null
        }
      </main>
      ${
        showInspector
          ? html`<${Inspector}
              sessionId=${chat.sessionId}
              runsVersion=${chat.runsVersion}
              item=${inspected}
              fromEnd=${turns.length - 1 - turns.indexOf(inspected)}
              onClose=${() => chat.inspect(null)}
            />`
          : null
      }
      ${
        needKey
          ? html`<${ApiKeyPrompt}
              initial=${apiKey() ?? ''}
              refused=${keyRefused}
              onSubmit=${submitKey}
            />`
          : null
      }
    </div>
    <//>
  `;
}
